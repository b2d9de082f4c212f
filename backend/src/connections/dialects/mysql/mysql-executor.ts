import type { QueryEstimate } from '@aigis/contracts';
import type mysql from 'mysql2';
import type { FieldPacket, PoolConnection } from 'mysql2';
import { isAppError } from '../../../common/app-error.js';
import { connectionFailed, queryFailed } from '../db-error.js';
import type { ExecuteOptions, ExecuteResult, ExplainOptions } from '../dialect-adapter.js';
import { backupTimerMs, cancelledError, supervise, timeoutError } from '../execution-control.js';
import { rowsToObjects, uniqueColumnNames } from '../json-safe.js';
import { DEFAULT_BUDGETS, RowCollector } from '../result-budget.js';
import { MYSQL_EXPLAIN_PREFIX, mysqlEstimate } from './mysql-explain.js';
import { isBrokenConnection, type MysqlPool, noop, run } from './mysql-pool.js';
import { convertRow } from './mysql-values.js';

/** Errnos of a statement stopped by the server's own timeout (MariaDB max_statement_time, MySQL max_execution_time). */
export const SERVER_TIMEOUT_ERRNOS = new Set([1969, 3024]);
const INTERRUPTED_ERRNO = 1317;

interface Streamed {
  columns: string[];
  collector: RowCollector;
}

/** One user statement inside `START TRANSACTION READ ONLY` … `ROLLBACK`, its rows streamed under the budgets. */
export async function executeMysql(pool: MysqlPool, sql: string, options: ExecuteOptions): Promise<ExecuteResult> {
  const limit = Math.max(0, options.maxRows) + 1;
  const sqlExecuted = options.appendLimit ? `${sql}\nLIMIT ${limit}` : sql;
  const { columns, collector } = await inReadOnlyTransaction(pool, options, (conn) =>
    stream(pool, conn, sqlExecuted, new RowCollector(Math.max(0, options.maxRows), options.budgets ?? DEFAULT_BUDGETS), !options.appendLimit),
  );
  return { columns, rows: rowsToObjects(columns, collector.rows), truncated: collector.truncated, truncatedReason: collector.reason, sqlExecuted };
}

/** The optimizer's estimate (EXPLAIN FORMAT=JSON) of a statement the guard accepted. Nothing executes. */
export async function explainMysql(pool: MysqlPool, sql: string, options: ExplainOptions): Promise<QueryEstimate> {
  const { rows } = await inReadOnlyTransaction(pool, options, (conn) => run(conn, MYSQL_EXPLAIN_PREFIX + sql));
  return mysqlEstimate(String((rows as unknown[][])[0]?.[0] ?? '{}'), sql);
}

/**
 * Checkout → the session's statement timeout → `START TRANSACTION READ ONLY` → `work` under supervision (KILL QUERY
 * on abort or the backup timer) → ROLLBACK and session reset, or the connection destroyed → release. A statement
 * stopped by us or by the server's timeout holds the connection until the server has really ended it.
 */
async function inReadOnlyTransaction<T>(
  pool: MysqlPool,
  options: { timeoutMs: number; signal?: AbortSignal },
  work: (conn: PoolConnection) => Promise<T>,
): Promise<T> {
  const { timeoutMs, signal } = options;
  const conn = await pool.checkout(signal, timeoutMs);
  let discard = false;
  let stoppedByUs = false;
  let interrupted = false;
  let workEnded = true;
  try {
    const { flavor } = await pool.serverFlavor(conn);
    await pool.setSessionTimeout(conn, flavor, timeoutMs);
    await run(conn, 'START TRANSACTION READ ONLY');
    workEnded = false;
    const running = work(conn);
    running.then(
      () => (workEnded = true),
      () => (workEnded = true),
    );
    return await supervise(running, {
      signal,
      timeoutMs,
      timerMs: backupTimerMs(timeoutMs),
      stop: async () => {
        stoppedByUs = true;
        await pool.killQuery(conn.threadId);
      },
    });
  } catch (err) {
    if (isAppError(err)) throw err;
    if (isBrokenConnection(err)) {
      discard = true;
      throw connectionFailed(pool.target, err, pool.settings);
    }
    const errno = (err as { errno?: number }).errno;
    if (errno !== undefined && SERVER_TIMEOUT_ERRNOS.has(errno)) {
      interrupted = true;
      throw timeoutError(timeoutMs);
    }
    if (errno === INTERRUPTED_ERRNO && !stoppedByUs) throw cancelledError();
    throw queryFailed('mysql', err, { password: pool.target.password });
  } finally {
    // A killed statement that has not ended yet would hold the ROLLBACK (and the caller) behind it.
    if (!workEnded) discard = true;
    if (!discard) discard = !(await pool.resetSession(conn));
    if (discard) conn.destroy();
    // Held until then, so the connection cannot start someone else's statement while we watch its thread.
    if (stoppedByUs || interrupted) await pool.waitUntilStopped(conn.threadId);
    if (!discard) conn.release();
  }
}

/**
 * Streams rows into the collector, each converted and cut as it arrives. Once the collector is full, the socket is
 * paused and the statement stopped with KILL QUERY, so a huge result is never transferred — unless the row cap
 * ended it and the appended LIMIT already stops the server there. mysql2 still receives each row packet whole; the
 * server's max_allowed_packet bounds it.
 */
function stream(pool: MysqlPool, conn: PoolConnection, sql: string, collector: RowCollector, killAtCap: boolean): Promise<Streamed> {
  return new Promise<Streamed>((resolve, reject) => {
    let fields: FieldPacket[] = [];
    let columns: string[] = [];
    let killing: Promise<void> | null = null;
    let done = false;
    const finish = (error?: unknown) => {
      if (done) return;
      done = true;
      const settle = () => (error ? reject(error) : resolve({ columns, collector }));
      if (killing) void killing.then(settle);
      else settle();
    };
    const core = conn as unknown as mysql.Connection;
    const query = core.query({ sql, rowsAsArray: true });
    query.on('fields', (f: FieldPacket[]) => {
      fields = f;
      columns = uniqueColumnNames(f.map((field) => field.name));
      collector.setColumns(columns);
    });
    query.on('result', (row: unknown) => {
      if (killing || collector.done) return;
      collector.push(convertRow(fields, row as unknown[], collector.cellMaxBytes));
      if (collector.done && (killAtCap || collector.reason === 'result_bytes')) {
        core.pause();
        killing = pool
          .killQuery(conn.threadId)
          .catch(noop)
          .finally(() => core.resume());
      }
    });
    query.on('error', (err: { errno?: number }) => {
      // Our own KILL QUERY after the cap ends the statement with "interrupted": the rows we kept are the answer.
      finish(killing && err.errno === INTERRUPTED_ERRNO ? undefined : err);
    });
    query.on('end', () => finish());
  });
}
