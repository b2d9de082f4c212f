import type { ElevatedPrivilege, QueryEstimate, SchemaTable } from '@aigis/contracts';
import pg from 'pg';
import { AppError, isAppError } from '../../common/app-error.js';
import { readPostgresCatalog } from '../introspection/postgres.catalog.js';
import { summarizeSampleRow } from '../introspection/samples.js';
import { connectionFailed, isConnectionError, queryFailed } from './db-error.js';
import type {
  AdapterSettings,
  ConnectionTarget,
  DialectAdapter,
  ExecuteOptions,
  ExecuteResult,
  ExplainOptions,
  IntrospectionResult,
  IntrospectOptions,
  ServerProbe,
} from './dialect-adapter.js';
import { checkoutWithin } from './pool-checkout.js';
import { gatePgPool } from './backend-gates.js';
import type { PoolGate } from '../../limits/pool-gate.js';
import { backupTimerMs, cancelledError, supervise, timeoutError } from './execution-control.js';
import { type JsonValue, rowsToObjects, uniqueColumnNames } from './json-safe.js';
import { POSTGRES_EXPLAIN_PREFIX, POSTGRES_RELATION_ROWS_SQL, postgresEstimate, summarizePostgresPlan } from './postgres-explain.js';
import { jsonSafePgTypes, parsePgCell, rawTextPgTypes } from './postgres-types.js';
import { type ByteBudgets, DEFAULT_BUDGETS, RowCollector } from './result-budget.js';
import { quoteQualified } from './quote-ident.js';
import { CheckedSocket } from '../reach/checked-socket.js';
import { tlsOptionsFor } from './tls-options.js';

/** Sample queries in flight per connection: enough to hide the round trip, few enough to spread slow tables. */
const SAMPLES_PER_LANE = 4;
/** A sample value is shown cut to SAMPLE_TEXT_MAX characters anyway; this bounds what is parsed first. */
const SAMPLE_CELL_MAX_BYTES = 4096;
const CURSOR_PREFIX = 'DECLARE aigis_cursor NO SCROLL CURSOR FOR ';
/** Session default for our own statements (catalog queries, probes); user statements set their own with SET LOCAL. */
const SESSION_STATEMENT_TIMEOUT_MS = 60_000;

type QueryConfigWithMode = pg.QueryConfig & { queryMode?: 'extended'; rowMode?: 'array' };

/**
 * PostgreSQL through a bounded pg Pool. User statements run as a cursor inside `BEGIN READ ONLY` that is always
 * rolled back: the cursor caps rows without rewriting the SQL and makes the planner aim for the first rows.
 */
export class PostgresAdapter implements DialectAdapter {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly clientConfig: pg.ClientConfig;
  /** The owner's connection budget, when the adapter serves a user (see limits/). */
  private readonly gate: PoolGate<pg.PoolClient> | undefined;
  private closed = false;

  constructor(
    private readonly target: ConnectionTarget,
    private readonly settings: AdapterSettings,
  ) {
    const reach = settings.reach;
    this.clientConfig = {
      host: target.host ?? 'localhost',
      port: target.port ?? 5432,
      database: target.database ?? undefined,
      user: target.user ?? undefined,
      password: target.password ?? undefined,
      ssl: tlsOptionsFor(target) ?? false,
      // Every new connection (pooled, cancel requests) resolves and checks the host, then dials the checked address.
      ...(reach ? { stream: () => new CheckedSocket((host, port) => reach(host, port, target.database ?? null)) } : {}),
      application_name: 'aigis',
      keepAlive: true,
      statement_timeout: SESSION_STATEMENT_TIMEOUT_MS,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      types: jsonSafePgTypes as unknown as pg.CustomTypesConfig,
      // Queries are written without waiting for earlier answers: sampling many tables costs little more than one.
      pipeline: true,
    };
    const clientConfig = this.clientConfig;
    // The connect timeout goes on the client, not the pool: pg-pool would also apply it to waiting for a busy pool.
    class BoundedClient extends pg.Client {
      constructor(config?: pg.ClientConfig) {
        // pg-pool keeps the password non-enumerable, so a spread alone would drop it.
        super({ ...config, password: clientConfig.password, connectionTimeoutMillis: clientConfig.connectionTimeoutMillis });
      }
    }
    this.pool = new pg.Pool({ ...clientConfig, connectionTimeoutMillis: 0, max: settings.poolMax, idleTimeoutMillis: 30_000, Client: BoundedClient });
    // An idle connection dropped by the server must not crash the process; the next checkout reconnects.
    this.pool.on('error', () => undefined);
    this.gate = gatePgPool(this.pool, settings);
  }

  async executeReadOnly(sql: string, options: ExecuteOptions): Promise<ExecuteResult> {
    const { maxRows, timeoutMs, signal } = options;
    const client = await this.checkout(signal, timeoutMs);
    let discard = false;
    let workEnded = false;
    try {
      const work = (async () => {
        // standard_conforming_strings: the database must read string literals exactly as the guard's parser did.
        await client.query(`BEGIN TRANSACTION READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}; SET LOCAL standard_conforming_strings = on`);
        // The extended protocol accepts exactly one statement, so nothing can ride along behind the user's SQL.
        await client.query({ text: CURSOR_PREFIX + sql, queryMode: 'extended' } as QueryConfigWithMode);
        return fetchWithinBudget(client, Math.max(0, maxRows), options.budgets ?? DEFAULT_BUDGETS);
      })();
      work.then(
        () => (workEnded = true),
        () => (workEnded = true),
      );
      const { columns, collector } = await supervise(work, {
        signal,
        timeoutMs,
        timerMs: backupTimerMs(timeoutMs),
        stop: () => this.cancelBackend(backendPid(client)),
      });
      return { columns, rows: rowsToObjects(columns, collector.rows), truncated: collector.truncated, truncatedReason: collector.reason, sqlExecuted: sql };
    } catch (err) {
      if (isAppError(err)) throw err;
      if (isConnectionError('postgres', err)) {
        discard = true;
        throw connectionFailed(this.target, err, this.settings);
      }
      if ((err as { code?: string }).code === '57014') throw timeoutError(timeoutMs);
      throw queryFailed('postgres', err, { password: this.target.password, positionOffset: CURSOR_PREFIX.length });
    } finally {
      // A stopped statement that has not ended yet would hold the ROLLBACK (and the caller) behind it: cut the
      // socket instead. Otherwise the ROLLBACK's answer also proves the server has finished with the statement.
      if (!workEnded) discard = true;
      if (!discard) discard = !(await this.resetSession(client));
      if (discard) destroySocket(client);
      this.release(client, discard);
    }
  }

  async explain(sql: string, options: ExplainOptions): Promise<QueryEstimate> {
    const { timeoutMs, signal } = options;
    const client = await this.checkout(signal, timeoutMs);
    let discard = false;
    let workEnded = false;
    try {
      const work = (async () => {
        await client.query(`BEGIN TRANSACTION READ ONLY; SET LOCAL statement_timeout = ${Math.max(1, Math.round(timeoutMs))}; SET LOCAL standard_conforming_strings = on`);
        // Extended protocol: one statement only, as for the query itself.
        const plan = await client.query({ text: POSTGRES_EXPLAIN_PREFIX + sql, queryMode: 'extended', rowMode: 'array' } as QueryConfigWithMode);
        const summary = summarizePostgresPlan((plan.rows[0] as unknown[] | undefined)?.[0]);
        const scanned = summary.seqScans;
        const sizes = scanned.length
          ? (await client.query(POSTGRES_RELATION_ROWS_SQL, [scanned.map((r) => r.schema), scanned.map((r) => r.name)])).rows
          : [];
        return postgresEstimate(summary, sizes as { schema: string; name: string; rows: number }[]);
      })();
      work.then(
        () => (workEnded = true),
        () => (workEnded = true),
      );
      return await supervise(work, { signal, timeoutMs, timerMs: backupTimerMs(timeoutMs), stop: () => this.cancelBackend(backendPid(client)) });
    } catch (err) {
      if (isAppError(err)) throw err;
      if (isConnectionError('postgres', err)) {
        discard = true;
        throw connectionFailed(this.target, err, this.settings);
      }
      if ((err as { code?: string }).code === '57014') throw timeoutError(timeoutMs);
      throw queryFailed('postgres', err, { password: this.target.password, positionOffset: POSTGRES_EXPLAIN_PREFIX.length });
    } finally {
      if (!workEnded) discard = true;
      // The same reset as after a query: nothing an estimate touched stays on the pooled session.
      if (!discard) discard = !(await this.resetSession(client));
      if (discard) destroySocket(client);
      this.release(client, discard);
    }
  }

  /**
   * Nothing a user statement did may outlive its request on the pooled session. ROLLBACK undoes the transaction;
   * DISCARD ALL then releases session-level advisory locks, closes cursors WITH HOLD, drops temporary tables and
   * prepared statements and resets settings and roles. Connections opened by dblink or postgres_fdw live in the
   * extension, not in the session state DISCARD resets: with either installed the session is ended instead.
   * The three statements are pipelined (one round trip). False: the session must be destroyed.
   */
  private async resetSession(client: pg.PoolClient): Promise<boolean> {
    try {
      const [, , remote] = await Promise.all([
        client.query('ROLLBACK'),
        client.query('DISCARD ALL'),
        client.query(REMOTE_LINK_EXTENSIONS_SQL),
      ]);
      return !(remote.rows[0] as { installed: boolean }).installed;
    } catch {
      return false;
    }
  }

  async probe(): Promise<ServerProbe> {
    const client = await this.checkout(undefined, this.settings.connectTimeoutMs * 2);
    try {
      const { rows } = await client.query(PROBE_SQL);
      return describeRole(rows[0] as ProbeRow);
    } catch (err) {
      throw this.mapOwnQueryError(err);
    } finally {
      this.release(client, false);
    }
  }

  async introspect(options: IntrospectOptions): Promise<IntrospectionResult> {
    // The three catalog queries run at once, each on its own pooled connection; sampling starts as soon as the
    // relation list is back, while columns and keys are still being read.
    const catalog = readPostgresCatalog(async (text) => {
      const client = await this.checkout(options.signal, SESSION_STATEMENT_TIMEOUT_MS);
      try {
        return (await client.query(text)).rows;
      } finally {
        this.release(client, false);
      }
    });
    try {
      const tables = await catalog.tables;
      const empty = await catalog.emptyTables;
      const sampling =
        options.sampleRows > 0
          ? this.sampleTables(
              tables.filter((t) => !empty.has(t)),
              options,
            )
          : Promise.resolve();
      sampling.catch(() => undefined); // awaited below, after the catalog
      await catalog.complete;
      await sampling;
      return { tables, catalogQueries: catalog.catalogQueries };
    } catch (err) {
      throw this.mapOwnQueryError(err);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
    this.gate?.close();
  }

  /**
   * Sample rows, one `SELECT * … LIMIT n` per table. `sampleConcurrency` queries are in flight at once, pipelined
   * over a few connections (a round trip per table would cost more than the queries themselves).
   */
  private async sampleTables(tables: SchemaTable[], options: IntrospectOptions): Promise<void> {
    if (tables.length === 0) return;
    const concurrency = Math.max(1, options.sampleConcurrency);
    const lanes = Math.max(1, Math.min(this.settings.poolMax, Math.ceil(concurrency / SAMPLES_PER_LANE), tables.length));
    const perLane = Math.ceil(concurrency / lanes);
    let next = 0;
    const take = () => (next < tables.length ? tables[next++] : undefined);
    await Promise.all(Array.from({ length: lanes }, () => this.sampleLane(take, perLane, options)));
  }

  /**
   * One connection made read-only for the session (so every sample runs in a READ ONLY transaction) with the
   * per-query statement timeout, and `inFlight` queries pipelined on it. A failing table records its error and the
   * rest go on; a watchdog drops the connection if the server stops answering altogether.
   */
  private async sampleLane(take: () => SchemaTable | undefined, inFlight: number, options: IntrospectOptions): Promise<void> {
    const { signal, sampleTimeoutMs, sampleRows } = options;
    const client = await this.checkout(signal, sampleTimeoutMs * 4);
    let broken: AppError | null = null;
    let lastProgress = Date.now();
    let pending = 0;
    const breakLane = (reason: AppError) => {
      if (broken) return;
      broken = reason;
      void this.cancelBackend(backendPid(client)).catch(noop);
      destroySocket(client);
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
                : queryFailed('postgres', err, { password: this.target.password }).message;
          } finally {
            pending--;
            lastProgress = Date.now();
          }
        }
      };
      await Promise.all(Array.from({ length: inFlight }, slot));
    } catch (err) {
      throw broken ?? this.mapOwnQueryError(err);
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
      this.release(client, broken !== null);
    }
  }

  private async checkout(signal: AbortSignal | undefined, waitMs: number): Promise<pg.PoolClient> {
    if (this.closed) throw new AppError('CONNECTION_FAILED', 'this connection was closed; try again');
    const client = await checkoutWithin(() => this.pool.connect(), {
      signal,
      waitMs,
      settings: this.settings,
      target: this.target,
      release: (c) => c.release(),
      gate: this.gate,
    });
    // A checked-out client without a listener would crash the process if its socket failed between queries.
    client.on('error', noop);
    return client;
  }

  private release(client: pg.PoolClient, discard: boolean): void {
    client.off('error', noop);
    client.release(discard ? true : undefined);
  }

  /** Asks the server to cancel the backend's running statement, from a separate short-lived connection. */
  private async cancelBackend(pid: number | null): Promise<void> {
    if (!pid) return;
    const canceller = new pg.Client({ ...this.clientConfig, types: undefined });
    canceller.on('error', noop);
    try {
      await canceller.connect();
      await canceller.query('SELECT pg_cancel_backend($1)', [pid]);
    } finally {
      await canceller.end().catch(noop);
    }
  }

  private mapOwnQueryError(err: unknown): AppError {
    if (isAppError(err)) return err;
    if (isConnectionError('postgres', err)) return connectionFailed(this.target, err, this.settings);
    return queryFailed('postgres', err, { password: this.target.password });
  }
}

function noop(): void {}

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

const REMOTE_LINK_EXTENSIONS_SQL = `SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_extension WHERE extname IN ('dblink', 'postgres_fdw')) AS installed`;

/** Cuts the client's socket now (ending a pipelined client politely would wait for its queries to finish). */
function destroySocket(client: pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

/** The server process id of a pooled client (pg sets it from BackendKeyData; the typings omit it). */
function backendPid(client: pg.PoolClient): number | null {
  return (client as unknown as { processID?: number | null }).processID ?? null;
}

const PROBE_SQL = `
  WITH rel AS (
    SELECT c.oid FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
  )
  SELECT current_setting('server_version') AS version,
         current_user AS role,
         r.rolsuper AS superuser,
         (SELECT COALESCE(json_agg(b.rolname ORDER BY b.rolname), '[]') FROM pg_catalog.pg_roles b
            WHERE b.rolname IN ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program')
              AND pg_has_role(current_user, b.oid, 'MEMBER')) AS server_roles,
         r.rolcreaterole AS create_role,
         current_setting('default_transaction_read_only') = 'on' AS default_read_only,
         pg_is_in_recovery() AS in_recovery,
         has_database_privilege(current_database(), 'CREATE') AS database_create,
         (SELECT COALESCE(json_agg(nspname ORDER BY nspname), '[]') FROM pg_catalog.pg_namespace
            WHERE nspname !~ '^pg_' AND nspname <> 'information_schema' AND has_schema_privilege(oid, 'CREATE')) AS create_schemas,
         (SELECT count(*) FROM rel WHERE has_table_privilege(rel.oid, 'INSERT')) AS "INSERT",
         (SELECT count(*) FROM rel WHERE has_table_privilege(rel.oid, 'UPDATE')) AS "UPDATE",
         (SELECT count(*) FROM rel WHERE has_table_privilege(rel.oid, 'DELETE')) AS "DELETE",
         (SELECT count(*) FROM rel WHERE has_table_privilege(rel.oid, 'TRUNCATE')) AS "TRUNCATE"
  FROM pg_catalog.pg_roles r WHERE r.rolname = current_user`;

interface ProbeRow {
  version: string;
  role: string;
  superuser: boolean;
  server_roles: string[];
  create_role: boolean;
  default_read_only: boolean;
  in_recovery: boolean;
  database_create: boolean;
  create_schemas: string[];
  INSERT: number;
  UPDATE: number;
  DELETE: number;
  TRUNCATE: number;
}

/** Superuser, or a member of the roles that read/write server files and run programs (COPY … PROGRAM). */
export function elevatedPostgresPrivileges(row: Pick<ProbeRow, 'superuser' | 'server_roles' | 'create_role'>): ElevatedPrivilege[] {
  if (row.superuser) return ['superuser', 'read_server_files', 'write_server_files', 'run_server_programs', 'grant_privileges'];
  const found: ElevatedPrivilege[] = [];
  if (row.server_roles.includes('pg_read_server_files')) found.push('read_server_files');
  if (row.server_roles.includes('pg_write_server_files')) found.push('write_server_files');
  if (row.server_roles.includes('pg_execute_server_program')) found.push('run_server_programs');
  if (row.create_role) found.push('grant_privileges');
  return found;
}

/** Whether the role can change anything, and the reasons in words. */
export function describeRole(row: ProbeRow): ServerProbe {
  const serverVersion = `PostgreSQL ${row.version}`;
  const elevatedPrivileges = elevatedPostgresPrivileges(row);
  if (row.in_recovery) {
    return { serverVersion, readOnlyRole: true, elevatedPrivileges, warnings: [] };
  }
  const powers: string[] = [];
  if (row.superuser) powers.push('it is a superuser');
  const tablePrivileges = (['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const)
    .filter((p) => Number(row[p]) > 0)
    .map((p) => `${p} on ${row[p]} table${Number(row[p]) === 1 ? '' : 's'}`);
  if (tablePrivileges.length) powers.push(tablePrivileges.join(', '));
  if (row.database_create) powers.push('CREATE on the database');
  if (row.create_schemas.length) powers.push(`CREATE in schema ${row.create_schemas.join(', ')}`);
  if (powers.length === 0) return { serverVersion, readOnlyRole: true, elevatedPrivileges, warnings: [] };
  const warnings = [`this role can write (${powers.join('; ')}); Aigis only reads, but a read-only role is safer`];
  if (row.default_read_only) {
    warnings.push('default_transaction_read_only is on for this role, but any session can switch it off');
  }
  return { serverVersion, readOnlyRole: false, elevatedPrivileges, warnings };
}
