import type { SchemaTable } from '@aigis/contracts';
import { attachDetails, type CatalogColumn, type CatalogForeignKey, createTables, toRowEstimate } from '../../introspection/catalog.js';

/**
 * The relations Aigis shows: tables (plain, partitioned parents, foreign), views and materialized views in every
 * schema but the system ones, that the role may read. Partitions are left out: their parent answers for them.
 */
const RELATIONS = `
  SELECT c.oid, c.relname, c.relkind, c.reltuples, n.nspname
  FROM pg_catalog.pg_class c
  JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
    AND NOT c.relispartition
    AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
    AND has_schema_privilege(n.oid, 'USAGE')
    AND has_any_column_privilege(c.oid, 'SELECT')`;

// reltuples is -1 for a table never vacuumed or analysed (PostgreSQL 14+): fall back to the live-tuple counter.
// A heap of zero bytes has no rows at all, which saves sampling it (common in schema-only or staging databases).
const TABLES_SQL = `
  WITH rel AS (${RELATIONS})
  SELECT rel.oid, rel.nspname AS schema, rel.relname AS name,
         CASE WHEN rel.relkind IN ('v', 'm') THEN 'view' ELSE 'table' END AS kind,
         d.description AS comment,
         rel.relkind IN ('r', 'm') AND pg_relation_size(rel.oid) = 0 AS empty,
         CASE WHEN rel.relkind = 'v' THEN NULL
              WHEN rel.reltuples >= 0 THEN rel.reltuples::float8
              WHEN pg_stat_get_live_tuples(rel.oid) > 0 THEN pg_stat_get_live_tuples(rel.oid)::float8
              END AS row_estimate
  FROM rel
  LEFT JOIN pg_catalog.pg_description d
    ON d.objoid = rel.oid AND d.classoid = 'pg_catalog.pg_class'::regclass AND d.objsubid = 0`;

// Comments come from a join, not col_description(): that function runs a query per column.
const COLUMNS_SQL = `
  WITH rel AS (${RELATIONS})
  SELECT a.attrelid AS oid, a.attname AS name,
         format_type(a.atttypid, a.atttypmod) AS type,
         NOT a.attnotnull AS nullable,
         CASE WHEN a.attidentity <> '' THEN 'generated ' || CASE a.attidentity WHEN 'a' THEN 'always' ELSE 'by default' END || ' as identity'
              WHEN a.attgenerated = 's' THEN 'generated always as (' || pg_get_expr(ad.adbin, ad.adrelid) || ') stored'
              ELSE pg_get_expr(ad.adbin, ad.adrelid) END AS "default",
         COALESCE(a.attnum = ANY (pk.conkey), false) AS primary_key,
         d.description AS comment
  FROM rel
  JOIN pg_catalog.pg_attribute a ON a.attrelid = rel.oid AND a.attnum > 0 AND NOT a.attisdropped
  LEFT JOIN pg_catalog.pg_attrdef ad ON ad.adrelid = a.attrelid AND ad.adnum = a.attnum
  LEFT JOIN pg_catalog.pg_constraint pk ON pk.conrelid = a.attrelid AND pk.contype = 'p'
  LEFT JOIN pg_catalog.pg_description d
    ON d.objoid = a.attrelid AND d.classoid = 'pg_catalog.pg_class'::regclass AND d.objsubid = a.attnum
  ORDER BY a.attrelid, a.attnum`;

// conparentid <> 0 marks the copies of a partitioned table's key on each partition.
const FOREIGN_KEYS_SQL = `
  WITH rel AS (${RELATIONS})
  SELECT con.conrelid AS oid, con.conname AS name,
         (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
            JOIN pg_catalog.pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum) AS columns,
         rn.nspname AS referenced_schema, rc.relname AS referenced_table,
         (SELECT json_agg(a.attname ORDER BY k.ord) FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
            JOIN pg_catalog.pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum) AS referenced_columns
  FROM rel
  JOIN pg_catalog.pg_constraint con ON con.conrelid = rel.oid AND con.contype = 'f' AND con.conparentid = 0
  JOIN pg_catalog.pg_class rc ON rc.oid = con.confrelid
  JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace
  ORDER BY con.conrelid, con.conname`;

/** Runs one catalog query and returns its rows as objects (values already JSON-safe through the pool's parsers). */
export type CatalogQuery = (sql: string) => Promise<Record<string, unknown>[]>;

export interface PostgresCatalog {
  /** The relations, as soon as their (fast) query is back; columns and keys are filled in when `complete` settles. */
  tables: Promise<SchemaTable[]>;
  /** Tables whose heap is empty: nothing to sample. Settles with `tables`. */
  emptyTables: Promise<Set<SchemaTable>>;
  /** Settles when columns and foreign keys are attached to the tables. */
  complete: Promise<void>;
  catalogQueries: number;
}

/**
 * All metadata of a PostgreSQL database in three catalog queries, whatever the number of tables. The three are
 * independent and issued together (the caller runs them on separate connections); the relation list comes back
 * first, so sampling can start while columns and keys are still being read.
 */
export function readPostgresCatalog(runQuery: CatalogQuery): PostgresCatalog {
  let catalogQueries = 0;
  const query: CatalogQuery = (sql) => {
    catalogQueries++;
    return runQuery(sql);
  };
  const relationRows = query(TABLES_SQL);
  const columnRows = query(COLUMNS_SQL);
  const fkRows = query(FOREIGN_KEYS_SQL);
  // Settled by the awaits below; this keeps an early failure of one from being reported as unhandled.
  for (const p of [relationRows, columnRows, fkRows]) p.catch(() => undefined);

  const relations = relationRows.then((rows) => {
    const byOid = new Map<number, { schema: string; name: string }>();
    const emptyOids = new Set<number>();
    const catalogTables = rows
      .map((r) => {
        const oid = r.oid as number;
        const t = { schema: r.schema as string, name: r.name as string };
        byOid.set(oid, t);
        if (r.empty) emptyOids.add(oid);
        return {
          oid,
          ...t,
          kind: r.kind as 'table' | 'view',
          comment: (r.comment as string | null) ?? null,
          rowEstimate: r.empty ? 0 : toRowEstimate(r.row_estimate),
        };
      })
      .sort((a, b) => compare(a.schema, b.schema) || compare(a.name, b.name));
    const tables = createTables(catalogTables);
    const emptyTables = new Set(tables.filter((_, i) => emptyOids.has(catalogTables[i].oid)));
    return { tables, emptyTables, byOid };
  });

  const complete = (async () => {
    const [{ tables, byOid }, columnResult, fkResult] = await Promise.all([relations, columnRows, fkRows]);
    // Rows of relations the first query did not keep (other schemas, tables gone since) are dropped.
    const owned = <T>(rows: Record<string, unknown>[], build: (r: Record<string, unknown>, owner: { schema: string; table: string }) => T): T[] =>
      rows.flatMap((r) => {
        const owner = byOid.get(r.oid as number);
        return owner ? [build(r, { schema: owner.schema, table: owner.name })] : [];
      });
    const columns: CatalogColumn[] = owned(columnResult, (r, owner) => ({
      ...owner,
      name: r.name as string,
      type: r.type as string,
      nullable: r.nullable as boolean,
      default: (r.default as string | null) ?? null,
      primary_key: r.primary_key as boolean,
      comment: (r.comment as string | null) ?? null,
    }));
    const foreignKeys: CatalogForeignKey[] = owned(fkResult, (r, owner) => ({
      ...owner,
      name: r.name as string,
      columns: (r.columns as string[] | null) ?? [],
      referenced_schema: r.referenced_schema as string,
      referenced_table: r.referenced_table as string,
      referenced_columns: (r.referenced_columns as string[] | null) ?? [],
    }));
    attachDetails(tables, columns, foreignKeys);
  })();
  complete.catch(() => undefined);

  return {
    tables: relations.then((r) => r.tables),
    emptyTables: relations.then((r) => r.emptyTables),
    complete,
    catalogQueries,
  };
}

/** Code-point order: stable and fast (the database's collation would cost time and differ between servers). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
