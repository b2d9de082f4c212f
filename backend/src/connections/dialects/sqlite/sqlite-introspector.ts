import { collectSamples, summarizeSampleRow } from '../../introspection/samples.js';
import type { IntrospectionResult, IntrospectOptions } from '../dialect-adapter.js';
import { uniqueColumnNames } from '../json-safe.js';
import { buildSqliteTables } from './sqlite.catalog.js';
import { SQLITE_COUNT_CAP } from './sqlite-executor.js';
import type { SqliteProcess } from './sqlite-process.js';

/** Catalog wait: the whole catalog is read in one request. */
const CATALOG_TIMEOUT_MS = 60_000;

/** The catalog in one request (a few statements), then each relation's sample rows and, for tables, its row count. */
export async function introspectSqlite(sqlite: SqliteProcess, options: IntrospectOptions): Promise<IntrospectionResult> {
  const catalog = await sqlite.request('catalog', {}, CATALOG_TIMEOUT_MS, options.signal);
  const include = options.includeTable;
  // Filtered before sampling: a hidden table is never read.
  const tables = buildSqliteTables(catalog).filter((t) => !include || include(t.schema, t.name));
  await collectSamples(tables, { concurrency: 1, signal: options.signal }, async (table) => {
    const isTable = table.kind === 'table';
    if (options.sampleRows <= 0 && !isTable) return [];
    const sample = await sqlite.request(
      'sample',
      { table: table.name, limit: Math.max(0, options.sampleRows), countCap: isTable ? SQLITE_COUNT_CAP : 0 },
      options.sampleTimeoutMs,
      options.signal,
    );
    table.row_estimate = sample.count;
    const columns = uniqueColumnNames(sample.columns);
    return sample.rows.map((row) => summarizeSampleRow(columns, row));
  });
  return { tables, catalogQueries: catalog.statements };
}
