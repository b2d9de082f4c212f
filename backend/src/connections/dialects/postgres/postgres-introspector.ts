import type { SchemaTable } from '@aigis/contracts';
import type pg from 'pg';
import { AppError } from '../../../common/app-error.js';
import { summarizeSampleRow } from '../../introspection/samples.js';
import { queryFailed } from '../db-error.js';
import type { IntrospectionResult, IntrospectOptions } from '../dialect-adapter.js';
import { backupTimerMs, cancelledError, timeoutError } from '../execution-control.js';
import { uniqueColumnNames } from '../json-safe.js';
import { quoteQualified } from '../quote-ident.js';
import { readPostgresCatalog } from './postgres.catalog.js';
import { noop, type PostgresPool, type QueryConfigWithMode, SESSION_STATEMENT_TIMEOUT_MS } from './postgres-pool.js';
import { parsePgCell, rawTextPgTypes } from './postgres-types.js';

/** Sample queries in flight per connection: enough to hide the round trip, few enough to spread slow tables. */
const SAMPLES_PER_LANE = 4;
/** A sample value is shown cut to SAMPLE_TEXT_MAX characters anyway; this bounds what is parsed first. */
const SAMPLE_CELL_MAX_BYTES = 4096;

/** Metadata in three catalog queries, then sample rows with bounded concurrency. */
export async function introspectPostgres(pool: PostgresPool, options: IntrospectOptions): Promise<IntrospectionResult> {
  // The three catalog queries run at once, each on its own pooled connection; sampling starts as soon as the
  // relation list is back, while columns and keys are still being read.
  const catalog = readPostgresCatalog(async (text) => {
    const client = await pool.checkout(options.signal, SESSION_STATEMENT_TIMEOUT_MS);
    try {
      return (await client.query(text)).rows;
    } finally {
      pool.release(client, false);
    }
  });
  try {
    const include = options.includeTable;
    // Filtered before sampling: a hidden table is never read. Columns and keys still attach (same objects).
    const tables = include ? (await catalog.tables).filter((t) => include(t.schema, t.name)) : await catalog.tables;
    const empty = await catalog.emptyTables;
    const sampling =
      options.sampleRows > 0
        ? sampleTables(
            pool,
            tables.filter((t) => !empty.has(t)),
            options,
          )
        : Promise.resolve();
    sampling.catch(noop); // awaited below, after the catalog
    await catalog.complete;
    await sampling;
    return { tables, catalogQueries: catalog.catalogQueries };
  } catch (err) {
    throw pool.ownQueryError(err);
  }
}

/**
 * Sample rows, one `SELECT * … LIMIT n` per table. `sampleConcurrency` queries are in flight at once, pipelined
 * over a few connections (a round trip per table would cost more than the queries themselves).
 */
async function sampleTables(pool: PostgresPool, tables: SchemaTable[], options: IntrospectOptions): Promise<void> {
  if (tables.length === 0) return;
  const concurrency = Math.max(1, options.sampleConcurrency);
  const lanes = Math.max(1, Math.min(pool.settings.poolMax, Math.ceil(concurrency / SAMPLES_PER_LANE), tables.length));
  const perLane = Math.ceil(concurrency / lanes);
  let next = 0;
  const take = () => (next < tables.length ? tables[next++] : undefined);
  await Promise.all(Array.from({ length: lanes }, () => sampleLane(pool, take, perLane, options)));
}

/**
 * One connection made read-only for the session (so every sample runs in a READ ONLY transaction) with the
 * per-query statement timeout, and `inFlight` queries pipelined on it. A failing table records its error and the
 * rest go on; a watchdog drops the connection if the server stops answering altogether.
 */
async function sampleLane(pool: PostgresPool, take: () => SchemaTable | undefined, inFlight: number, options: IntrospectOptions): Promise<void> {
  const { signal, sampleTimeoutMs, sampleRows } = options;
  const client = await pool.checkout(signal, sampleTimeoutMs * 4);
  let broken: AppError | null = null;
  let lastProgress = Date.now();
  let pending = 0;
  const breakLane = (reason: AppError) => {
    if (broken) return;
    broken = reason;
    void pool.cancel(client).catch(noop);
    pool.destroy(client);
  };
  const stall = backupTimerMs(sampleTimeoutMs);
  const watchdog = setInterval(() => {
    if (pending > 0 && Date.now() - lastProgress > stall) {
      breakLane(new AppError('QUERY_TIMEOUT', 'the database stopped answering while sample rows were read'));
    }
  }, Math.min(1000, stall));
  watchdog.unref();
  const onAbort = () => breakLane(cancelledError());
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    if (signal?.aborted) throw cancelledError();
    await client.query(`SET default_transaction_read_only = on; SET statement_timeout = ${Math.max(1, Math.round(sampleTimeoutMs))}`);
    const slot = async () => {
      for (let table = take(); table; table = take()) {
        if (broken) throw broken;
        pending++;
        try {
          const text = `SELECT * FROM ${quoteQualified('postgres', table.schema, table.name)} LIMIT ${sampleRows}`;
          // Values arrive unparsed and are cut before parsing: a sample never holds a whole huge value.
          const result = (await client.query({ text, rowMode: 'array', types: rawTextPgTypes } as QueryConfigWithMode)) as unknown as pg.QueryArrayResult;
          const columns = uniqueColumnNames(result.fields.map((f) => f.name));
          table.sample_rows = result.rows.map((row) =>
            summarizeSampleRow(columns, row.map((text, i) => (text === null ? null : parsePgCell(result.fields[i].dataTypeID, text as string, SAMPLE_CELL_MAX_BYTES)))),
          );
        } catch (err) {
          if (broken) throw broken;
          table.sample_rows = [];
          table.sample_error =
            (err as { code?: string }).code === '57014'
              ? timeoutError(sampleTimeoutMs).message
              : queryFailed('postgres', err, { password: pool.target.password }).message;
        } finally {
          pending--;
          lastProgress = Date.now();
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, slot));
  } catch (err) {
    throw broken ?? pool.ownQueryError(err);
  } finally {
    clearInterval(watchdog);
    signal?.removeEventListener('abort', onAbort);
    if (!broken) {
      try {
        await client.query('RESET default_transaction_read_only; RESET statement_timeout');
      } catch {
        broken = cancelledError();
      }
    }
    pool.release(client, broken !== null);
  }
}
