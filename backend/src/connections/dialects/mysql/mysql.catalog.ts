import type { SchemaTable } from '@aigis/contracts';
import { assembleTables, type CatalogColumn, type CatalogForeignKey, type CatalogTable, toRowEstimate } from '../../introspection/catalog.js';

const SYSTEM_SCHEMAS = `('mysql', 'information_schema', 'performance_schema', 'sys')`;

/** Runs one catalog query with `?` parameters and returns rows as arrays. */
export type MysqlCatalogQuery = (sql: string, params: unknown[]) => Promise<unknown[][]>;

/**
 * All metadata in three information_schema queries. With a database in the connection only that database is read;
 * without one, every non-system database the account can see (information_schema shows only those).
 */
export async function readMysqlCatalog(
  runQuery: MysqlCatalogQuery,
  database: string | null,
  flavor: 'mysql' | 'mariadb',
): Promise<{ tables: SchemaTable[]; catalogQueries: number }> {
  let catalogQueries = 0;
  const query: MysqlCatalogQuery = (sql, params) => {
    catalogQueries++;
    return runQuery(sql, params);
  };
  const filter = (column: string) => (database ? `${column} = ?` : `${column} NOT IN ${SYSTEM_SCHEMAS}`);
  const params = database ? [database] : [];

  // Independent queries: issued together (the caller runs them on separate connections).
  const [tableRows, columnRows, fkRows] = await Promise.all([
    query(
      `SELECT TABLE_SCHEMA, TABLE_NAME, TABLE_TYPE, TABLE_ROWS, TABLE_COMMENT
       FROM information_schema.TABLES WHERE ${filter('TABLE_SCHEMA')}
       ORDER BY TABLE_SCHEMA, TABLE_NAME`,
      params,
    ),
    query(
      `SELECT TABLE_SCHEMA, TABLE_NAME, COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_DEFAULT, COLUMN_KEY, COLUMN_COMMENT, EXTRA
       FROM information_schema.COLUMNS WHERE ${filter('TABLE_SCHEMA')}
       ORDER BY TABLE_SCHEMA, TABLE_NAME, ORDINAL_POSITION`,
      params,
    ),
    query(
      `SELECT TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, COLUMN_NAME,
              REFERENCED_TABLE_SCHEMA, REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME
       FROM information_schema.KEY_COLUMN_USAGE
       WHERE REFERENCED_TABLE_NAME IS NOT NULL AND ${filter('TABLE_SCHEMA')}
       ORDER BY TABLE_SCHEMA, TABLE_NAME, CONSTRAINT_NAME, ORDINAL_POSITION`,
      params,
    ),
  ]);

  const tables: CatalogTable[] = tableRows.map(([schema, name, type, rows, comment]) => {
    const isView = type === 'VIEW';
    return {
      schema: schema as string,
      name: name as string,
      kind: isView ? 'view' : 'table',
      // MariaDB and MySQL 5.x put the word "VIEW" where a view's comment would be.
      comment: isView || !comment ? null : (comment as string),
      rowEstimate: isView ? null : toRowEstimate(rows),
    };
  });
  const columns: CatalogColumn[] = columnRows.map(([schema, table, name, type, nullable, dflt, key, comment, extra]) => ({
    schema: schema as string,
    table: table as string,
    name: name as string,
    type: (type as string) + (extra && /auto_increment|generated/i.test(extra as string) ? ` ${extra as string}` : ''),
    nullable: nullable === 'YES',
    default: normalizeDefault(dflt as string | null, flavor),
    primary_key: key === 'PRI',
    comment: (comment as string) || null,
  }));
  const foreignKeys = groupForeignKeys(fkRows);
  return { tables: assembleTables(tables, columns, foreignKeys), catalogQueries };
}

/** MariaDB reports a missing default as the text 'NULL' (and quotes literals); MySQL as SQL NULL. */
function normalizeDefault(value: string | null, flavor: 'mysql' | 'mariadb'): string | null {
  if (value === null) return null;
  if (flavor === 'mariadb' && value === 'NULL') return null;
  return value;
}

/** KEY_COLUMN_USAGE has one row per column: group consecutive rows of one constraint. */
function groupForeignKeys(rows: unknown[][]): CatalogForeignKey[] {
  const out: CatalogForeignKey[] = [];
  let current: CatalogForeignKey | null = null;
  for (const [schema, table, name, column, refSchema, refTable, refColumn] of rows) {
    if (!current || current.schema !== schema || current.table !== table || current.name !== name) {
      current = {
        schema: schema as string,
        table: table as string,
        name: name as string,
        columns: [],
        referenced_schema: refSchema as string,
        referenced_table: refTable as string,
        referenced_columns: [],
      };
      out.push(current);
    }
    current.columns.push(column as string);
    current.referenced_columns.push(refColumn as string);
  }
  return out;
}
