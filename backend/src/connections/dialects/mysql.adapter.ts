import type { ElevatedPrivilege, QueryEstimate, SchemaTable } from '@aigis/contracts';
import mysql from 'mysql2';
import type { FieldPacket, Pool, PoolConnection, PoolOptions } from 'mysql2';
import { AppError, isAppError } from '../../common/app-error.js';
import { readMysqlCatalog } from '../introspection/mysql.catalog.js';
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
import { gateMysqlPool } from './backend-gates.js';
import type { PoolGate } from '../../limits/pool-gate.js';
import { backupTimerMs, cancelledError, delay, supervise, timeoutError } from './execution-control.js';
import { bigintToJson, bytesToJson, decimalToJson, type JsonValue, rowsToObjects, toJsonSafe, uniqueColumnNames } from './json-safe.js';
import { capCell, DEFAULT_BUDGETS, RowCollector } from './result-budget.js';
import { MYSQL_EXPLAIN_PREFIX, mysqlEstimate } from './mysql-explain.js';
import { quoteQualified } from './quote-ident.js';
import { CheckedSocket } from '../reach/checked-socket.js';
import { tlsOptionsFor, sslModeOf } from './tls-options.js';

type Flavor = 'mysql' | 'mariadb';

// Column type codes of the MySQL protocol (mysql2's constants/types).
const TYPE_DECIMAL = 0;
const TYPE_NEWDECIMAL = 246;
const TYPE_LONGLONG = 8;
const TYPE_BIT = 16;

/** Errnos of a statement stopped by the server's own timeout (MariaDB max_statement_time, MySQL max_execution_time). */
const SERVER_TIMEOUT_ERRNOS = new Set([1969, 3024]);
const INTERRUPTED_ERRNO = 1317;

interface Streamed {
  columns: string[];
  collector: RowCollector;
}

/**
 * MySQL and MariaDB through a bounded mysql2 pool. Every pooled session is put in READ ONLY mode once (a READ ONLY
 * transaction alone would not stop DDL: MySQL commits implicitly before it), and each statement also runs inside
 * `START TRANSACTION READ ONLY` … `ROLLBACK`.
 */
export class MysqlAdapter implements DialectAdapter {
  readonly dialect = 'mysql' as const;
  private readonly pool: Pool;
  private readonly config: PoolOptions;
  private readonly readOnlySessions = new WeakSet<PoolConnection>();
  private readonly sessionTimeouts = new WeakMap<PoolConnection, number>();
  private flavor: Promise<{ flavor: Flavor; version: string }> | null = null;
  /** The owner's connection budget, when the adapter serves a user (see limits/). */
  private readonly gate: PoolGate<PoolConnection> | undefined;
  private closed = false;

  constructor(
    private readonly target: ConnectionTarget,
    private readonly settings: AdapterSettings,
  ) {
    const reach = settings.reach;
    const tlsOptions = tlsOptionsFor(target);
    this.config = {
      host: target.host ?? 'localhost',
      port: target.port ?? 3306,
      user: target.user ?? undefined,
      password: target.password ?? undefined,
      database: target.database || undefined,
      // mysql2 spells verify-full as verifyIdentity (its own check against the host name it was given).
      ssl: tlsOptions ? { ca: tlsOptions.ca as string | undefined, rejectUnauthorized: tlsOptions.rejectUnauthorized, verifyIdentity: sslModeOf(target) === 'verify-full' } : undefined,
      // Every new connection (pooled, KILL QUERY, watcher) resolves and checks the host, then dials the checked address.
      ...(reach ? { stream: (opts: { config: { host?: string; port?: number } }) => checkedStream(reach, opts.config.host ?? 'localhost', opts.config.port ?? 3306, target.database ?? null) } : {}),
      connectTimeout: settings.connectTimeoutMs,
      charset: 'UTF8MB4_UNICODE_CI',
      // Values stay exact: dates as the server prints them, BIGINT/DECIMAL as text (made JSON-safe below).
      dateStrings: true,
      supportBigNumbers: true,
      bigNumberStrings: true,
      multipleStatements: false,
      enableKeepAlive: true,
    };
    this.pool = mysql.createPool({ ...this.config, connectionLimit: settings.poolMax, maxIdle: settings.poolMax, idleTimeout: 30_000, queueLimit: 0 });
    this.pool.on('connection', (conn) => (conn as unknown as NodeJS.EventEmitter).on('error', noop));
    this.gate = gateMysqlPool(this.pool, settings);
  }

  async executeReadOnly(sql: string, options: ExecuteOptions): Promise<ExecuteResult> {
    const { maxRows, timeoutMs, signal } = options;
    const limit = Math.max(0, maxRows) + 1;
    const sqlExecuted = options.appendLimit ? `${sql}\nLIMIT ${limit}` : sql;
    const conn = await this.checkout(signal, timeoutMs);
    let discard = false;
    let stoppedByUs = false;
    let interrupted = false;
    let workEnded = true;
    try {
      const { flavor } = await this.serverFlavor(conn);
      await this.setSessionTimeout(conn, flavor, timeoutMs);
      await run(conn, 'START TRANSACTION READ ONLY');
      workEnded = false;
      const work = this.stream(conn, sqlExecuted, new RowCollector(Math.max(0, maxRows), options.budgets ?? DEFAULT_BUDGETS), !options.appendLimit);
      work.then(
        () => (workEnded = true),
        () => (workEnded = true),
      );
      const { columns, collector } = await supervise(work, {
        signal,
        timeoutMs,
        timerMs: backupTimerMs(timeoutMs),
        stop: async () => {
          stoppedByUs = true;
          await this.killQuery(conn.threadId);
        },
      });
      return { columns, rows: rowsToObjects(columns, collector.rows), truncated: collector.truncated, truncatedReason: collector.reason, sqlExecuted };
    } catch (err) {
      if (isAppError(err)) throw err;
      if (isConnectionError('mysql', err) && !(err as { sqlMessage?: string }).sqlMessage) {
        discard = true;
        throw connectionFailed(this.target, err, this.settings);
      }
      const errno = (err as { errno?: number }).errno;
      if (errno !== undefined && SERVER_TIMEOUT_ERRNOS.has(errno)) {
        interrupted = true;
        throw timeoutError(timeoutMs);
      }
      if (errno === INTERRUPTED_ERRNO && !stoppedByUs) throw cancelledError();
      throw queryFailed('mysql', err, { password: this.target.password });
    } finally {
      // A killed statement that has not ended yet would hold the ROLLBACK (and the caller) behind it.
      if (!workEnded) discard = true;
      if (!discard) discard = !(await this.resetSession(conn));
      if (discard) conn.destroy();
      // Held until then, so the connection cannot start someone else's statement while we watch its thread.
      if (stoppedByUs || interrupted) await this.waitUntilStopped(conn.threadId);
      if (!discard) conn.release();
    }
  }

  async explain(sql: string, options: ExplainOptions): Promise<QueryEstimate> {
    const { timeoutMs, signal } = options;
    const conn = await this.checkout(signal, timeoutMs);
    let discard = false;
    let stoppedByUs = false;
    let workEnded = true;
    try {
      const { flavor } = await this.serverFlavor(conn);
      await this.setSessionTimeout(conn, flavor, timeoutMs);
      await run(conn, 'START TRANSACTION READ ONLY');
      workEnded = false;
      const work = run(conn, MYSQL_EXPLAIN_PREFIX + sql);
      work.then(
        () => (workEnded = true),
        () => (workEnded = true),
      );
      const { rows } = await supervise(work, {
        signal,
        timeoutMs,
        timerMs: backupTimerMs(timeoutMs),
        stop: async () => {
          stoppedByUs = true;
          await this.killQuery(conn.threadId);
        },
      });
      return mysqlEstimate(String((rows as unknown[][])[0]?.[0] ?? '{}'), sql);
    } catch (err) {
      if (isAppError(err)) throw err;
      if (isConnectionError('mysql', err) && !(err as { sqlMessage?: string }).sqlMessage) {
        discard = true;
        throw connectionFailed(this.target, err, this.settings);
      }
      const errno = (err as { errno?: number }).errno;
      if (errno !== undefined && SERVER_TIMEOUT_ERRNOS.has(errno)) throw timeoutError(timeoutMs);
      throw queryFailed('mysql', err, { password: this.target.password });
    } finally {
      if (!workEnded) discard = true;
      // The same reset as after a query: nothing an estimate touched stays on the pooled session.
      if (!discard) discard = !(await this.resetSession(conn));
      if (discard) conn.destroy();
      if (stoppedByUs) await this.waitUntilStopped(conn.threadId);
      if (!discard) conn.release();
    }
  }

  /**
   * Nothing a user statement did may outlive its request on the pooled session: after the ROLLBACK,
   * COM_RESET_CONNECTION releases GET_LOCK locks and table locks, drops temporary tables and clears user
   * variables and session settings (so the read-only mode and timeout are set again at the next checkout).
   * False: the session must be destroyed.
   */
  private async resetSession(conn: PoolConnection): Promise<boolean> {
    try {
      await run(conn, 'ROLLBACK');
      await new Promise<void>((resolve, reject) => (conn as unknown as mysql.Connection).reset((err: unknown) => (err ? reject(err) : resolve())));
      this.readOnlySessions.delete(conn);
      this.sessionTimeouts.delete(conn);
      return true;
    } catch {
      return false;
    }
  }

  async probe(): Promise<ServerProbe> {
    const conn = await this.checkout(undefined, this.settings.connectTimeoutMs * 2);
    try {
      const { flavor, version } = await this.serverFlavor(conn);
      const [[readOnlyServer]] = (await run(conn, 'SELECT @@global.read_only')).rows as unknown[][];
      const grants = (await run(conn, 'SHOW GRANTS')).rows.map((r) => String((r as unknown[])[0]));
      const serverVersion = flavor === 'mariadb' ? `MariaDB ${version.replace(/-MariaDB.*$/i, '')}` : `MySQL ${version}`;
      return describeGrants(serverVersion, grants, Number(readOnlyServer) === 1);
    } catch (err) {
      throw this.mapOwnQueryError(err);
    } finally {
      conn.release();
    }
  }

  async introspect(options: IntrospectOptions): Promise<IntrospectionResult> {
    let catalog: Awaited<ReturnType<typeof readMysqlCatalog>>;
    let flavor: Flavor;
    try {
      const first = await this.checkout(options.signal, 60_000);
      try {
        flavor = (await this.serverFlavor(first)).flavor;
      } finally {
        first.release();
      }
      // The three catalog queries run at once, each on its own pooled connection.
      catalog = await readMysqlCatalog(
        async (sql, params) => {
          const conn = await this.checkout(options.signal, 60_000);
          try {
            return (await run(conn, sql, params)).rows as unknown[][];
          } finally {
            conn.release();
          }
        },
        this.target.database || null,
        flavor,
      );
    } catch (err) {
      throw this.mapOwnQueryError(err);
    }
    if (options.sampleRows > 0) await this.sampleTables(catalog.tables, flavor, options);
    return catalog;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => this.pool.end(() => resolve()));
    this.gate?.close();
  }

  /** `sampleConcurrency` workers, each keeping one connection for all the tables it samples. */
  private async sampleTables(tables: SchemaTable[], flavor: Flavor, options: IntrospectOptions): Promise<void> {
    const { signal, sampleTimeoutMs } = options;
    const workers = Math.max(1, Math.min(options.sampleConcurrency, this.settings.poolMax, tables.length));
    let next = 0;
    const worker = async () => {
      let conn: PoolConnection | null = null;
      try {
        while (next < tables.length) {
          if (signal?.aborted) throw cancelledError();
          const table = tables[next++];
          conn ??= await this.checkout(signal, sampleTimeoutMs * 4);
          const outcome = await this.sampleTable(conn, table, flavor, options);
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
  private async sampleTable(conn: PoolConnection, table: SchemaTable, flavor: Flavor, options: IntrospectOptions): Promise<'keep' | 'discard'> {
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
          await this.killQuery(conn.threadId);
        },
      });
      const columns = uniqueColumnNames(result.fields.map((f) => f.name));
      table.sample_rows = (result.rows as unknown[][]).map((row) => summarizeSampleRow(columns, convertRow(result.fields, row)));
      return 'keep';
    } catch (err) {
      if (isAppError(err) && err.code === 'QUERY_CANCELLED') throw err;
      const errno = (err as { errno?: number }).errno;
      if (isConnectionError('mysql', err) && !(err as { sqlMessage?: string }).sqlMessage) throw this.mapOwnQueryError(err);
      table.sample_rows = [];
      table.sample_error =
        errno !== undefined && SERVER_TIMEOUT_ERRNOS.has(errno) ? timeoutError(sampleTimeoutMs).message : this.mapOwnQueryError(err).message;
      return stopped ? 'discard' : 'keep';
    }
  }

  /**
   * Streams rows into the collector, each converted and cut as it arrives. Once the collector is full, the socket is
   * paused and the statement stopped with KILL QUERY, so a huge result is never transferred — unless the row cap
   * ended it and the appended LIMIT already stops the server there. mysql2 still receives each row packet whole; the
   * server's max_allowed_packet bounds it.
   */
  private stream(conn: PoolConnection, sql: string, collector: RowCollector, killAtCap: boolean): Promise<Streamed> {
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
          killing = this.killQuery(conn.threadId)
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

  private async checkout(signal: AbortSignal | undefined, waitMs: number): Promise<PoolConnection> {
    if (this.closed) throw new AppError('CONNECTION_FAILED', 'this connection was closed; try again');
    const conn = await checkoutWithin(
      () => new Promise<PoolConnection>((resolve, reject) => this.pool.getConnection((err, c) => (err ? reject(err) : resolve(c)))),
      { signal, waitMs, settings: this.settings, target: this.target, release: (c) => c.release(), gate: this.gate },
    );
    if (!this.readOnlySessions.has(conn)) {
      try {
        await run(conn, 'SET SESSION TRANSACTION READ ONLY');
        this.readOnlySessions.add(conn);
      } catch (err) {
        conn.destroy();
        throw this.mapOwnQueryError(err);
      }
    }
    return conn;
  }

  private serverFlavor(conn: PoolConnection): Promise<{ flavor: Flavor; version: string }> {
    if (!this.flavor) {
      this.flavor = run(conn, 'SELECT VERSION()').then(({ rows }) => {
        const version = String((rows as unknown[][])[0][0]);
        return { flavor: /mariadb/i.test(version) ? 'mariadb' : 'mysql', version };
      });
      this.flavor.catch(() => (this.flavor = null));
    }
    return this.flavor;
  }

  /** Sets the server-side statement timeout on the session, only when it differs from what the session has. */
  private async setSessionTimeout(conn: PoolConnection, flavor: Flavor, timeoutMs: number): Promise<void> {
    const ms = Math.max(1, Math.round(timeoutMs));
    if (this.sessionTimeouts.get(conn) === ms) return;
    // MariaDB counts seconds (fractions allowed) for every statement; MySQL milliseconds, for SELECT only.
    await run(conn, flavor === 'mariadb' ? `SET SESSION max_statement_time = ${ms / 1000}` : `SET SESSION max_execution_time = ${ms}`);
    this.sessionTimeouts.set(conn, ms);
  }

  /** KILL QUERY from a separate short-lived connection (the pool may be exhausted). */
  private async killQuery(threadId: number | null): Promise<void> {
    if (!threadId) return;
    const killer = mysql.createConnection({ ...this.config, database: undefined });
    killer.on('error', noop);
    try {
      await new Promise<void>((resolve, reject) => killer.query(`KILL QUERY ${Number(threadId)}`, (err) => (err ? reject(err) : resolve())));
    } finally {
      killer.destroy();
    }
  }

  /**
   * After a statement was stopped (KILL QUERY, or the server's own timeout) the server may still be unwinding it
   * (dropping a large temporary table) when the client already has the error. Waits, bounded, until the thread no
   * longer runs a query, so a caller told "cancelled" or "timed out" can rely on it.
   */
  private async waitUntilStopped(threadId: number | null, limitMs = 3000): Promise<void> {
    if (!threadId) return;
    const watcher = mysql.createConnection({ ...this.config, database: undefined });
    watcher.on('error', noop);
    try {
      const deadline = Date.now() + limitMs;
      while (Date.now() < deadline) {
        const { rows } = await run(watcher, 'SELECT COMMAND FROM information_schema.PROCESSLIST WHERE ID = ?', [threadId]);
        const command = (rows as unknown[][])[0]?.[0];
        if (command !== 'Query' && command !== 'Killed') return;
        await delay(20);
      }
    } catch {
      // Best effort: the statement was killed either way.
    } finally {
      watcher.destroy();
    }
  }

  private mapOwnQueryError(err: unknown): AppError {
    if (isAppError(err)) return err;
    if (isConnectionError('mysql', err) && !(err as { sqlMessage?: string }).sqlMessage) {
      return connectionFailed(this.target, err, this.settings);
    }
    if ([1044, 1045, 1049].includes((err as { errno?: number }).errno ?? -1)) return connectionFailed(this.target, err, this.settings);
    return queryFailed('mysql', err, { password: this.target.password });
  }
}

function noop(): void {}

/** mysql2's stream factory: a socket that resolves and checks the host before connecting (see CheckedSocket). */
function checkedStream(reach: NonNullable<AdapterSettings['reach']>, host: string, port: number, database: string | null): CheckedSocket {
  const socket = new CheckedSocket((h, p) => reach(h, p, database));
  socket.setNoDelay(true);
  socket.once('connect', () => socket.setKeepAlive(true));
  return socket.connect(port, host);
}

function run(conn: PoolConnection | mysql.Connection, sql: string, params: unknown[] = []): Promise<{ rows: unknown[]; fields: FieldPacket[] }> {
  return new Promise((resolve, reject) => {
    (conn as mysql.Connection).query({ sql, values: params, rowsAsArray: true }, (err, rows, fields) =>
      err ? reject(err) : resolve({ rows: rows as unknown[], fields: (fields ?? []) as FieldPacket[] }),
    );
  });
}

/** Driver values → JSON-safe, by the column's protocol type (BIGINT and DECIMAL arrive as exact text). */
function convertRow(fields: FieldPacket[], row: unknown[], cellMaxBytes = Infinity): JsonValue[] {
  return row.map((value, i) => capCell(convertValue(fields[i], value), cellMaxBytes));
}

function convertValue(field: FieldPacket | undefined, value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  const type = (field as { columnType?: number } | undefined)?.columnType;
  if (type === TYPE_LONGLONG && typeof value === 'string') return bigintToJson(value);
  if ((type === TYPE_NEWDECIMAL || type === TYPE_DECIMAL) && typeof value === 'string') return decimalToJson(value);
  if (type === TYPE_BIT && Buffer.isBuffer(value)) return bigintToJson(value.length ? BigInt(`0x${value.toString('hex')}`) : 0n);
  if (Buffer.isBuffer(value)) return bytesToJson(value) as unknown as JsonValue;
  return toJsonSafe(value);
}

// Privileges that let an account change data or schema (SHOW GRANTS spells them like this on MySQL and MariaDB).
const WRITE_PRIVILEGES = [
  'ALL PRIVILEGES',
  'ALL',
  'INSERT',
  'UPDATE',
  'DELETE',
  'DELETE HISTORY',
  'CREATE',
  'DROP',
  'ALTER',
  'INDEX',
  'CREATE VIEW',
  'CREATE ROUTINE',
  'ALTER ROUTINE',
  'TRIGGER',
  'EVENT',
  'FILE',
  'SUPER',
];

/** SUPER, FILE, ALL PRIVILEGES on *.* and GRANT OPTION: ways out of the database (files, admin, granting). */
export function elevatedMysqlPrivileges(grants: string[]): ElevatedPrivilege[] {
  const found = new Set<ElevatedPrivilege>();
  for (const line of grants) {
    const m = /^GRANT\s+(.+?)\s+ON\s+(?:(?:TABLE|FUNCTION|PROCEDURE)\s+)?(\S+)\s+TO\s/i.exec(line);
    if (!m) continue;
    const privileges = m[1].replace(/\([^)]*\)/g, '').split(',').map((p) => p.trim().toUpperCase());
    const global = m[2] === '*.*';
    if (global && privileges.some((p) => p === 'ALL' || p === 'ALL PRIVILEGES')) {
      ['superuser', 'read_server_files', 'write_server_files'].forEach((p) => found.add(p as ElevatedPrivilege));
    }
    if (privileges.includes('SUPER')) found.add('superuser');
    if (privileges.includes('FILE')) ['read_server_files', 'write_server_files'].forEach((p) => found.add(p as ElevatedPrivilege));
    if (/\bWITH\s+GRANT\s+OPTION\b/i.test(line) || privileges.includes('GRANT OPTION')) found.add('grant_privileges');
  }
  const order: ElevatedPrivilege[] = ['superuser', 'read_server_files', 'write_server_files', 'run_server_programs', 'grant_privileges'];
  return order.filter((p) => found.has(p));
}

/** Reads SHOW GRANTS: can this account write anywhere? The warning names what it may do and where. */
export function describeGrants(serverVersion: string, grants: string[], serverReadOnly: boolean): ServerProbe {
  const elevatedPrivileges = elevatedMysqlPrivileges(grants);
  const found: string[] = [];
  for (const line of grants) {
    const m = /^GRANT\s+(.+?)\s+ON\s+(?:(?:TABLE|FUNCTION|PROCEDURE)\s+)?(\S+)\s+TO\s/i.exec(line);
    if (!m) continue;
    const privileges = m[1]
      .replace(/\([^)]*\)/g, '') // column lists: SELECT (a, b)
      .split(',')
      .map((p) => p.trim().toUpperCase())
      .filter((p) => WRITE_PRIVILEGES.includes(p));
    if (privileges.length) found.push(`${privileges.join(', ')} on ${m[2]}`);
  }
  if (found.length === 0) return { serverVersion, readOnlyRole: true, elevatedPrivileges, warnings: [] };
  if (serverReadOnly && !found.some((f) => /ALL|SUPER/.test(f))) {
    return { serverVersion, readOnlyRole: true, elevatedPrivileges, warnings: ['the server runs read-only (read_only = ON)'] };
  }
  return {
    serverVersion,
    readOnlyRole: false,
    elevatedPrivileges,
    warnings: [`this account can write (${found.join('; ')}); Aigis only reads, but a read-only account is safer`],
  };
}
