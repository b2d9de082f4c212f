import SQLite from 'better-sqlite3';
import mysql from 'mysql2/promise';
import pg from 'pg';

export type ExportDialect = 'postgres' | 'mysql';

interface Column {
  name: string;
  type: string;
  notnull: boolean;
  pk: boolean;
}

interface TableSpec {
  name: string;
  columns: Column[];
  unique: string[][];
  foreignKeys: { columns: string[]; table: string; references: string[] }[];
  comment: string | null;
}

const MONTHLY_REVENUE: Record<ExportDialect, string> = {
  postgres: `CREATE VIEW monthly_revenue AS
SELECT to_char(order_date, 'YYYY-MM') AS month, COUNT(*) AS order_count, COUNT(DISTINCT customer_id) AS customer_count,
       ROUND(SUM(total), 2) AS revenue, ROUND(SUM(total) / COUNT(*), 2) AS average_order_value
FROM orders WHERE status NOT IN ('cancelled', 'returned') GROUP BY 1 ORDER BY 1`,
  mysql: `CREATE VIEW monthly_revenue AS
SELECT DATE_FORMAT(order_date, '%Y-%m') AS month, COUNT(*) AS order_count, COUNT(DISTINCT customer_id) AS customer_count,
       ROUND(SUM(total), 2) AS revenue, ROUND(SUM(total) / COUNT(*), 2) AS average_order_value
FROM orders WHERE status NOT IN ('cancelled', 'returned') GROUP BY 1 ORDER BY 1`,
};

/** Reads the generated SQLite store's own catalog, so the copy follows whatever the generator creates. */
export function readTables(db: SQLite.Database): TableSpec[] {
  const comments = new Map(
    (db.prepare("SELECT object_name, description FROM demo_store_readme").all() as { object_name: string; description: string }[]).map((r) => [r.object_name, r.description]),
  );
  const names = (db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all() as { name: string }[]).map((r) => r.name);
  return names.map((name) => {
    const columns = (db.prepare('SELECT name, type, "notnull" AS nn, pk FROM pragma_table_info(?)').all(name) as { name: string; type: string; nn: number; pk: number }[]).map(
      (c) => ({ name: c.name, type: c.type.toUpperCase(), notnull: c.nn === 1, pk: c.pk > 0 }),
    );
    const unique = (db.prepare("SELECT name FROM pragma_index_list(?) WHERE origin = 'u'").all(name) as { name: string }[]).map((index) =>
      (db.prepare('SELECT name FROM pragma_index_info(?) ORDER BY seqno').all(index.name) as { name: string }[]).map((c) => c.name),
    );
    const fkRows = db.prepare('SELECT id, "table", "from", "to" FROM pragma_foreign_key_list(?) ORDER BY id, seq').all(name) as { id: number; table: string; from: string; to: string }[];
    const byId = new Map<number, TableSpec['foreignKeys'][number]>();
    for (const fk of fkRows) {
      const entry = byId.get(fk.id) ?? { columns: [], table: fk.table, references: [] };
      entry.columns.push(fk.from);
      entry.references.push(fk.to);
      byId.set(fk.id, entry);
    }
    return { name, columns, unique, foreignKeys: [...byId.values()], comment: comments.get(name) ?? null };
  });
}

function columnType(dialect: ExportDialect, column: Column, indexed: boolean): string {
  if (column.type === 'INTEGER') return 'INTEGER';
  if (column.type === 'REAL') return 'NUMERIC(12, 2)';
  if (/_date$/.test(column.name)) return 'DATE';
  // MySQL cannot index TEXT without a prefix length.
  return dialect === 'mysql' ? (indexed ? 'VARCHAR(255)' : 'TEXT') : 'TEXT';
}

export function createTableSql(dialect: ExportDialect, table: TableSpec): string {
  const q = (id: string) => (dialect === 'mysql' ? `\`${id}\`` : `"${id}"`);
  const indexed = new Set([...table.unique.flat(), ...table.columns.filter((c) => c.pk).map((c) => c.name)]);
  const lines = table.columns.map((c) => `${q(c.name)} ${columnType(dialect, c, indexed.has(c.name))}${c.notnull || c.pk ? ' NOT NULL' : ''}`);
  const pk = table.columns.filter((c) => c.pk).map((c) => q(c.name));
  if (pk.length) lines.push(`PRIMARY KEY (${pk.join(', ')})`);
  for (const unique of table.unique) lines.push(`UNIQUE (${unique.map(q).join(', ')})`);
  return `CREATE TABLE ${q(table.name)} (\n  ${lines.join(',\n  ')}\n)`;
}

interface Target {
  run(sql: string, params?: unknown[]): Promise<void>;
  close(): Promise<void>;
  placeholders(count: number, offset: number): string;
  quote(id: string): string;
}

async function openTarget(dialect: ExportDialect, url: string): Promise<Target> {
  if (dialect === 'postgres') {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return {
      run: async (sql, params) => {
        await client.query(sql, params as unknown[]);
      },
      close: () => client.end(),
      placeholders: (count, offset) => `(${Array.from({ length: count }, (_, i) => `$${offset + i + 1}`).join(', ')})`,
      quote: (id) => `"${id}"`,
    };
  }
  const connection = await mysql.createConnection({ uri: url, multipleStatements: false });
  return {
    run: async (sql, params) => {
      await connection.query(sql, params);
    },
    close: () => connection.end(),
    placeholders: (count) => `(${Array(count).fill('?').join(', ')})`,
    quote: (id) => `\`${id}\``,
  };
}

/** Copies the generated store into an empty-or-disposable PostgreSQL or MySQL database (tables are replaced). */
export async function exportDemoStore(sqliteFile: string, dialect: ExportDialect, url: string): Promise<Record<string, number>> {
  const source = new SQLite(sqliteFile, { readonly: true });
  const target = await openTarget(dialect, url);
  const counts: Record<string, number> = {};
  try {
    const tables = readTables(source);
    await target.run('DROP VIEW IF EXISTS monthly_revenue');
    for (const table of [...tables].reverse()) await target.run(`DROP TABLE IF EXISTS ${target.quote(table.name)}${dialect === 'postgres' ? ' CASCADE' : ''}`);
    for (const table of tables) {
      await target.run(createTableSql(dialect, table));
      const columns = table.columns.map((c) => c.name);
      const rows = source.prepare(`SELECT ${columns.map((c) => `"${c}"`).join(', ')} FROM "${table.name}" ORDER BY rowid`).raw().all() as unknown[][];
      const batch = Math.max(1, Math.floor(30_000 / columns.length));
      for (let start = 0; start < rows.length; start += batch) {
        const chunk = rows.slice(start, start + batch);
        const values = chunk.map((_, i) => target.placeholders(columns.length, i * columns.length)).join(', ');
        await target.run(`INSERT INTO ${target.quote(table.name)} (${columns.map(target.quote).join(', ')}) VALUES ${values}`, chunk.flat());
      }
      counts[table.name] = rows.length;
    }
    // Keys after the rows, so self-references (category parents, managers) need no load order.
    for (const table of tables) {
      for (const fk of table.foreignKeys) {
        await target.run(
          `ALTER TABLE ${target.quote(table.name)} ADD FOREIGN KEY (${fk.columns.map(target.quote).join(', ')}) REFERENCES ${target.quote(fk.table)} (${fk.references.map(target.quote).join(', ')})`,
        );
      }
      if (table.comment) {
        const comment = table.comment.replace(/'/g, "''");
        await target.run(dialect === 'postgres' ? `COMMENT ON TABLE "${table.name}" IS '${comment}'` : `ALTER TABLE \`${table.name}\` COMMENT = '${comment.slice(0, 2000)}'`);
      }
    }
    for (const statement of ['CREATE INDEX idx_orders_order_date ON orders (order_date)', 'CREATE INDEX idx_orders_customer ON orders (customer_id)', 'CREATE INDEX idx_order_items_product ON order_items (product_id)']) {
      await target.run(statement);
    }
    await target.run(MONTHLY_REVENUE[dialect]);
    return counts;
  } finally {
    source.close();
    await target.close();
  }
}
