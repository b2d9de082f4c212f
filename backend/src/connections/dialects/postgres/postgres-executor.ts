import type { QueryEstimate } from '@aigis/contracts';
import pg from 'pg';
import { isAppError } from '../../../common/app-error.js';
import { connectionFailed, isConnectionError, queryFailed } from '../db-error.js';
import type { ExecuteOptions, ExecuteResult, ExplainOptions } from '../dialect-adapter.js';
import { backupTimerMs, supervise, timeoutError } from '../execution-control.js';
import { type JsonValue, rowsToObjects, uniqueColumnNames } from '../json-safe.js';
import { type ByteBudgets, DEFAULT_BUDGETS, RowCollector } from '../result-budget.js';
import { POSTGRES_EXPLAIN_PREFIX, POSTGRES_RELATION_ROWS_SQL, postgresEstimate, summarizePostgresPlan } from './postgres-explain.js';
import type { PostgresPool, QueryConfigWithMode } from './postgres-pool.js';
import { parsePgCell, rawTextPgTypes } from './postgres-types.js';

const CURSOR_PREFIX = 'DECLARE aigis_cursor NO SCROLL CURSOR FOR ';
/** PostgreSQL's query_canceled: the statement timeout (a cancel of ours ends in supervise first). */
const QUERY_CANCELED = '57014';

/**
 * Runs one user statement as a cursor inside `BEGIN READ ONLY` that is always rolled back: the cursor caps rows
 * without rewriting the SQL and makes the planner aim for the first rows.
 */
export async function executePostgres(pool: PostgresPool, sql: string, options: ExecuteOptions): Promise<ExecuteResult> {
  const { maxRows } = options;
  const { columns, collector } = await inReadOnlyTransaction(pool, options, CURSOR_PREFIX.length, async (client) => {
    // The extended protocol accepts exactly one statement, so nothing can ride along behind the user's SQL.
    await client.query({ text: CURSOR_PREFIX + sql, queryMode: 'extended' } as QueryConfigWithMode);
    return fetchWithinBudget(client, Math.max(0, maxRows), options.budgets ?? DEFAULT_BUDGETS);
  });
  return { columns, rows: rowsToObjects(columns, collector.rows), truncated: collector.truncated, truncatedReason: collector.reason, sqlExecuted: sql };
}

/** The planner's estimate of a statement the guard accepted, and the sizes of the tables it would scan. Nothing executes. */
export function explainPostgres(pool: PostgresPool, sql: string, options: ExplainOptions): Promise<QueryEstimate> {
  return inReadOnlyTransaction(pool, options, POSTGRES_EXPLAIN_PREFIX.length, async (client) => {
    // Extended protocol: one statement only, as for the query itself.
    const plan = await client.query({ text: POSTGRES_EXPLAIN_PREFIX + sql, queryMode: 'extended', rowMode: 'array' } as QueryConfigWithMode);
    const summary = summarizePostgresPlan((plan.rows[0] as unknown[] | undefined)?.[0]);
    const scanned = summary.seqScans;
    const sizes = scanned.length
      ? (await client.query(POSTGRES_RELATION_ROWS_SQL, [scanned.map((r) => r.schema), scanned.map((r) => r.name)])).rows
      : [];
    return postgresEstimate(summary, sizes as { schema: string; name: string; rows: number }[]);
  });
}

/**
 * Checkout → `BEGIN READ ONLY` with the statement timeout → `work` under supervision (cancel on abort or the backup
 * timer) → the session reset, or the connection discarded → release. `positionOffset`: the length of our prefix in
 * front of the user's SQL, so an error position points into their text.
 */
async function inReadOnlyTransaction<T>(
  pool: PostgresPool,
  options: { timeoutMs: number; signal?: AbortSignal },
  positionOffset: number,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const { timeoutMs, signal } = options;
  const { target, settings } = pool;
  const client = await pool.checkout(signal, timeoutMs);
  let discard = false;
  let workEnded = false;
  try {
    const running = (async () => {
      // standard_conforming_strings: the database must read string literals exactly as the guard's parser did.
      await client.query(`BEGIN TRANSACTION READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}; SET LOCAL standard_conforming_strings = on`);
      return work(client);
    })();
    running.then(
      () => (workEnded = true),
      () => (workEnded = true),
    );
    return await supervise(running, { signal, timeoutMs, timerMs: backupTimerMs(timeoutMs), stop: () => pool.cancel(client) });
  } catch (err) {
    if (isAppError(err)) throw err;
    if (isConnectionError('postgres', err)) {
      discard = true;
      throw connectionFailed(target, err, settings);
    }
    if ((err as { code?: string }).code === QUERY_CANCELED) throw timeoutError(timeoutMs);
    throw queryFailed('postgres', err, { password: target.password, positionOffset });
  } finally {
    // A stopped statement that has not ended yet would hold the ROLLBACK (and the caller) behind it: cut the
    // socket instead. Otherwise the ROLLBACK's answer also proves the server has finished with the statement.
    if (!workEnded) discard = true;
    if (!discard) discard = !(await resetSession(client));
    if (discard) pool.destroy(client);
    pool.release(client, discard);
  }
}

const REMOTE_LINK_EXTENSIONS_SQL = `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname IN ('dblink', 'postgres_fdw')) AS installed`;

/**
 * Nothing a user statement did may outlive its request on the pooled session. ROLLBACK undoes the transaction;
 * DISCARD ALL then releases session-level advisory locks, closes cursors WITH HOLD, drops temporary tables and
 * prepared statements and resets settings and roles. Connections opened by dblink or postgres_fdw live in the
 * extension, not in the session state DISCARD resets: with either installed the session is ended instead.
 * The three statements are pipelined (one round trip). False: the session must be destroyed.
 */
async function resetSession(client: pg.PoolClient): Promise<boolean> {
  try {
    const [, , remote] = await Promise.all([client.query('ROLLBACK'), client.query('DISCARD ALL'), client.query(REMOTE_LINK_EXTENSIONS_SQL)]);
    return !(remote.rows[0] as { installed: boolean }).installed;
  } catch {
    return false;
  }
}

/** Rows of the first FETCH: small results take one round trip, and a first look bounds what a huge row can cost. */
const FIRST_FETCH_ROWS = 16;

/**
 * Reads the open cursor in batches under the row cap and the byte budgets. Each row is cut and kept (or dropped)
 * as it arrives, so pg never accumulates a batch; the next batch asks for as many rows as the budget left seems
 * to hold, and none is asked for once the budget is spent. pg itself still receives each whole row (PostgreSQL
 * sends a field of up to 1 GB whole): at most one raw row is held at a time.
 */
async function fetchWithinBudget(client: pg.PoolClient, maxRows: number, budgets: ByteBudgets): Promise<{ columns: string[]; collector: RowCollector }> {
  const collector = new RowCollector(maxRows, budgets);
  let columns: string[] | null = null;
  let batch = Math.min(FIRST_FETCH_ROWS, maxRows + 1);
  for (;;) {
    const { fields, received } = await fetchBatch(client, batch, (row, fields) => {
      if (!columns) {
        columns = uniqueColumnNames(fields.map((f) => f.name));
        collector.setColumns(columns);
      }
      if (collector.done) return;
      collector.push(row.map((text, i) => (text === null ? null : (parsePgCell(fields[i].dataTypeID, text as string, budgets.cellMaxBytes) as JsonValue))));
    });
    columns ??= uniqueColumnNames(fields.map((f) => f.name));
    if (collector.done || received < batch) break;
    const remainingRows = maxRows + 1 - collector.rows.length;
    const perRow = collector.rows.length > 0 ? collector.bytes / collector.rows.length : 1;
    const fits = Math.floor((budgets.resultMaxBytes - collector.bytes) / Math.max(1, perRow)) + 1;
    batch = Math.max(1, Math.min(remainingRows, fits));
  }
  return { columns: columns ?? [], collector };
}

/** One FETCH whose rows go to `onRow` as they are parsed (a row listener keeps pg from accumulating them). */
function fetchBatch(client: pg.PoolClient, count: number, onRow: (row: unknown[], fields: pg.FieldDef[]) => void): Promise<{ fields: pg.FieldDef[]; received: number }> {
  return new Promise((resolve, reject) => {
    const query = new pg.Query({ text: `FETCH FORWARD ${count} FROM aigis_cursor`, rowMode: 'array', types: rawTextPgTypes } as QueryConfigWithMode);
    let received = 0;
    let failure: unknown = null;
    query.on('row', (row: unknown[], result?: { fields: pg.FieldDef[] }) => {
      received++;
      if (failure) return;
      try {
        onRow(row, result?.fields ?? []);
      } catch (err) {
        failure = err; // thrown from inside pg's parser it would break the connection
      }
    });
    query.on('error', reject);
    query.on('end', (result: pg.QueryArrayResult | undefined) => (failure ? reject(failure) : resolve({ fields: result?.fields ?? [], received })));
    client.query(query);
  });
}
