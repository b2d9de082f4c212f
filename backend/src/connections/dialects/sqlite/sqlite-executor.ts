import type { QueryEstimate } from '@aigis/contracts';
import type { ExecuteOptions, ExecuteResult, ExplainOptions } from '../dialect-adapter.js';
import { rowsToObjects, toJsonSafe, uniqueColumnNames } from '../json-safe.js';
import { DEFAULT_BUDGETS, RowCollector } from '../result-budget.js';
import { scanCandidates, scannedNames, sqliteEstimate } from './sqlite-explain.js';
import type { SqliteProcess } from './sqlite-process.js';

/** SQLite keeps no row statistics, so introspection and estimates count, up to this many rows per table. */
export const SQLITE_COUNT_CAP = 1_000_000;

/** One statement in the read-only process; the child cuts every value and stops at the budget before sending. */
export async function executeSqlite(sqlite: SqliteProcess, sql: string, options: ExecuteOptions): Promise<ExecuteResult> {
  const { maxRows, timeoutMs, signal } = options;
  const budgets = options.budgets ?? DEFAULT_BUDGETS;
  const result = await sqlite.request(
    'exec',
    { sql, maxRows: Math.max(0, maxRows), cellMaxBytes: budgets.cellMaxBytes, resultMaxBytes: budgets.resultMaxBytes },
    timeoutMs,
    signal,
  );
  const columns = uniqueColumnNames(result.columns);
  const collector = new RowCollector(Math.max(0, maxRows), budgets);
  collector.setColumns(columns);
  for (const row of result.rows) if (!collector.push(row.map(toJsonSafe))) break;
  const truncated = result.truncated || collector.truncated;
  return {
    columns,
    rows: rowsToObjects(columns, collector.rows),
    truncated,
    truncatedReason: truncated ? (collector.reason ?? result.reason ?? 'row_limit') : null,
    sqlExecuted: sql,
  };
}

/** EXPLAIN QUERY PLAN, then the row counts of the scanned tables, in the read-only process under the timeout. */
export async function explainSqlite(sqlite: SqliteProcess, sql: string, options: ExplainOptions): Promise<QueryEstimate> {
  const { timeoutMs, signal } = options;
  const started = performance.now();
  const { plan, tables } = await sqlite.request('plan', { sql }, timeoutMs, signal);
  const candidates = new Map(scannedNames(plan).map((name) => [name, scanCandidates(sql, name, tables)]));
  const wanted = [...new Set([...candidates.values()].flat())];
  const remaining = Math.max(1, timeoutMs - (performance.now() - started));
  const { counts } = wanted.length ? await sqlite.request('tableRows', { tables: wanted, countCap: SQLITE_COUNT_CAP }, remaining, signal) : { counts: {} };
  const resolved: Record<string, string> = {};
  for (const [name, options] of candidates) {
    const largest = options.reduce<string | undefined>((best, t) => (best === undefined || (counts[t] ?? 0) > (counts[best] ?? 0) ? t : best), undefined);
    if (largest !== undefined) resolved[name] = largest;
  }
  return sqliteEstimate({ plan, tableRows: counts, resolved });
}
