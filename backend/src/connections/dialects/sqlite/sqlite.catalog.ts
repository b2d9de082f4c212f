import type { SchemaTable } from '@aigis/contracts';
import { assembleTables, type CatalogColumn, type CatalogForeignKey, type CatalogTable } from '../../introspection/catalog.js';

export type SqliteCatalog = {
  tables: [string, string][];
  columns: [string, string, string, number, string | null, number, number][];
  foreignKeys: [string, number, number, string, string, string | null][];
};

/** Rows of sqlite_master / pragma_table_xinfo / pragma_foreign_key_list → SchemaTables (schema "main"). */
export function buildSqliteTables(catalog: SqliteCatalog): SchemaTable[] {
  const tables: CatalogTable[] = catalog.tables.map(([name, type]) => ({
    schema: 'main',
    name,
    kind: type === 'view' ? 'view' : 'table',
    comment: null,
    rowEstimate: null,
  }));
  const columns: CatalogColumn[] = catalog.columns.map(([table, name, type, notnull, dflt, pk]) => ({
    schema: 'main',
    table,
    name,
    type: type || '',
    nullable: Number(notnull) === 0 && Number(pk) === 0,
    default: dflt,
    primary_key: Number(pk) > 0,
    comment: null,
  }));
  // A key written as REFERENCES t (no column list) points at t's primary key.
  const primaryKeys = new Map<string, string[]>();
  for (const c of columns) if (c.primary_key) primaryKeys.set(c.table, [...(primaryKeys.get(c.table) ?? []), c.name]);
  const foreignKeys: (CatalogForeignKey & { id: number })[] = [];
  let current: (CatalogForeignKey & { id: number }) | null = null;
  for (const [table, id, , refTable, from, to] of catalog.foreignKeys) {
    if (!current || current.table !== table || current.id !== Number(id)) {
      current = { schema: 'main', table, id: Number(id), name: null, columns: [], referenced_schema: 'main', referenced_table: refTable, referenced_columns: [] };
      foreignKeys.push(current);
    }
    current.columns.push(from);
    current.referenced_columns.push(to ?? primaryKeys.get(refTable)?.[current.columns.length - 1] ?? '');
  }
  return assembleTables(
    tables,
    columns,
    foreignKeys.map(({ id: _id, ...fk }) => fk),
  );
}
