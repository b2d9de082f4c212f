import type { SchemaTable } from '@aigis/contracts';
import type { PoolConnection } from 'mysql2';
import { isAppError } from '../../../common/app-error.js';
import { summarizeSampleRow } from '../../introspection/samples.js';
import type { IntrospectionResult, IntrospectOptions } from '../dialect-adapter.js';
import { backupTimerMs, cancelledError, supervise, timeoutError } from '../execution-control.js';
import { uniqueColumnNames } from '../json-safe.js';
import { quoteQualified } from '../quote-ident.js';
import { readMysqlCatalog } from './mysql.catalog.js';
import { SERVER_TIMEOUT_ERRNOS } from './mysql-executor.js';
import { type Flavor, isBrokenConnection, type MysqlPool, run } from './mysql-pool.js';
import { convertRow } from './mysql-values.js';

/** Catalog wait: our own metadata queries get a minute for a busy pool. */
const CATALOG_WAIT_MS = 60_000;

/** Metadata in three catalog queries (all databases the account may read when none is set), then sample rows. */
export async function introspectMysql(pool: MysqlPool, options: IntrospectOptions): Promise<IntrospectionResult> {
  let catalog: Awaited<ReturnType<typeof readMysqlCatalog>>;
  let flavor: Flavor;
  try {
    const first = await pool.checkout(options.signal, CATALOG_WAIT_MS);
    try {
      flavor = (await pool.serverFlavor(first)).flavor;
    } finally {
      first.release();
    }
    // The three catalog queries run at once, each on its own pooled connection.
    catalog = await readMysqlCatalog(
      async (sql, params) => {
        const conn = await pool.checkout(options.signal, CATALOG_WAIT_MS);
        try {
          return (await run(conn, sql, params)).rows as unknown[][];
        } finally {
          conn.release();
        }
      },
      pool.target.database || null,
      flavor,
    );
  } catch (err) {
    throw pool.ownQueryError(err);
  }
  const include = options.includeTable;
  // Filtered before sampling: a hidden table is never read.
  if (include) catalog = { ...catalog, tables: catalog.tables.filter((t) => include(t.schema, t.name)) };
  if (options.sampleRows > 0) await sampleTables(pool, catalog.tables, flavor, options);
  return catalog;
}

/** `sampleConcurrency` workers, each keeping one connection for all the tables it samples. */
async function sampleTables(pool: MysqlPool, tables: SchemaTable[], flavor: Flavor, options: IntrospectOptions): Promise<void> {
  const { signal, sampleTimeoutMs } = options;
  const workers = Math.max(1, Math.min(options.sampleConcurrency, pool.settings.poolMax, tables.length));
  let next = 0;
  const worker = async () => {
    let conn: PoolConnection | null = null;
    try {
      while (next < tables.length) {
        if (signal?.aborted) throw cancelledError();
        const table = tables[next++];
        conn ??= await pool.checkout(signal, sampleTimeoutMs * 4);
        const outcome = await sampleTable(pool, conn, table, flavor, options);
        if (outcome === 'discard') {
          conn.destroy();
          conn = null;
        }
      }
    } finally {
      conn?.release();
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
}

/**
 * One table's sample in one round trip: the session is already read-only, and the timeout rides on the statement
 * (MariaDB `SET STATEMENT … FOR`, MySQL's optimizer hint). Errors land in `sample_error`; an abort is thrown.
 */
async function sampleTable(pool: MysqlPool, conn: PoolConnection, table: SchemaTable, flavor: Flavor, options: IntrospectOptions): Promise<'keep' | 'discard'> {
  const { sampleTimeoutMs, sampleRows, signal } = options;
  const name = quoteQualified('mysql', table.schema, table.name);
  const sql =
    flavor === 'mariadb'
      ? `SET STATEMENT max_statement_time = ${sampleTimeoutMs / 1000} FOR SELECT * FROM ${name} LIMIT ${sampleRows}`
      : `SELECT /*+ MAX_EXECUTION_TIME(${sampleTimeoutMs}) */ * FROM ${name} LIMIT ${sampleRows}`;
  let stopped = false;
  try {
    const result = await supervise(run(conn, sql), {
      signal,
      timeoutMs: sampleTimeoutMs,
      timerMs: backupTimerMs(sampleTimeoutMs),
      stop: async () => {
        stopped = true;
        await pool.killQuery(conn.threadId);
      },
    });
    const columns = uniqueColumnNames(result.fields.map((f) => f.name));
    table.sample_rows = (result.rows as unknown[][]).map((row) => summarizeSampleRow(columns, convertRow(result.fields, row)));
    return 'keep';
  } catch (err) {
    if (isAppError(err) && err.code === 'QUERY_CANCELLED') throw err;
    const errno = (err as { errno?: number }).errno;
    if (isBrokenConnection(err)) throw pool.ownQueryError(err);
    table.sample_rows = [];
    table.sample_error = errno !== undefined && SERVER_TIMEOUT_ERRNOS.has(errno) ? timeoutError(sampleTimeoutMs).message : pool.ownQueryError(err).message;
    return stopped ? 'discard' : 'keep';
  }
}
