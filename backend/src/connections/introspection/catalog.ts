import type { SchemaColumn, SchemaForeignKey, SchemaTable } from '@aigis/contracts';

/** One relation as the catalog queries return it (before columns and keys are attached). */
export interface CatalogTable {
  schema: string | null;
  name: string;
  kind: 'table' | 'view';
  comment: string | null;
  rowEstimate: number | null;
}

export interface CatalogColumn extends SchemaColumn {
  schema: string | null;
  table: string;
}

export interface CatalogForeignKey extends SchemaForeignKey {
  schema: string | null;
  table: string;
}

function key(schema: string | null, name: string): string {
  return `${schema ?? ''}\u0000${name}`;
}

/** SchemaTables for the relations, in their order, still without columns and keys (see attachDetails). */
export function createTables(tables: CatalogTable[]): SchemaTable[] {
  return tables.map((t) => ({
    schema: t.schema,
    name: t.name,
    kind: t.kind,
    comment: t.comment || null,
    columns: [],
    foreign_keys: [],
    row_estimate: t.rowEstimate,
    sample_rows: [],
  }));
}

/**
 * Adds columns and foreign keys to the tables they belong to. Those of relations that were filtered out
 * (no privilege, system schema) are dropped.
 */
export function attachDetails(tables: SchemaTable[], columns: CatalogColumn[], foreignKeys: CatalogForeignKey[]): void {
  const byKey = new Map(tables.map((t) => [key(t.schema, t.name), t]));
  for (const c of columns) {
    const { schema, table, ...column } = c;
    byKey.get(key(schema, table))?.columns.push({ ...column, comment: column.comment || null });
  }
  for (const fk of foreignKeys) {
    const { schema, table, ...foreignKey } = fk;
    byKey.get(key(schema, table))?.foreign_keys.push(foreignKey);
  }
}

/** The three catalog result sets (relations, columns, foreign keys) joined into SchemaTables. */
export function assembleTables(
  tables: CatalogTable[],
  columns: CatalogColumn[],
  foreignKeys: CatalogForeignKey[],
): SchemaTable[] {
  const result = createTables(tables);
  attachDetails(result, columns, foreignKeys);
  return result;
}

/** Accepts a number-ish catalog value (float, bigint text) as a non-negative row estimate, else null. */
export function toRowEstimate(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
}
