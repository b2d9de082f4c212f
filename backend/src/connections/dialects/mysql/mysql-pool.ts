import mysql from 'mysql2';
import type { FieldPacket, Pool, PoolConnection, PoolOptions } from 'mysql2';
import { AppError, isAppError } from '../../../common/app-error.js';
import type { PoolGate } from '../../../limits/pool-gate.js';
import { CheckedSocket } from '../../reach/checked-socket.js';
import { connectionFailed, isConnectionError, queryFailed } from '../db-error.js';
import type { AdapterSettings, ConnectionTarget } from '../dialect-adapter.js';
import { delay } from '../execution-control.js';
import { checkoutWithin } from '../pool-checkout.js';
import { sslModeOf, tlsOptionsFor } from '../tls-options.js';
import { gateMysqlPool } from './mysql-pool-gate.js';

export type Flavor = 'mysql' | 'mariadb';

/**
 * A bounded mysql2 pool for one connection, kept within its owner's connection budget. Every pooled session is put
 * in READ ONLY mode once (a READ ONLY transaction alone would not stop DDL: MySQL commits implicitly before it).
 * Also stops statements (KILL QUERY from a separate connection) and waits until they have ended.
 */
export class MysqlPool {
  private readonly pool: Pool;
  private readonly config: PoolOptions;
  private readonly readOnlySessions = new WeakSet<PoolConnection>();
  private readonly sessionTimeouts = new WeakMap<PoolConnection, number>();
  private flavor: Promise<{ flavor: Flavor; version: string }> | null = null;
  /** The owner's connection budget, when the adapter serves a user (see limits/). */
  private readonly gate: PoolGate<PoolConnection> | undefined;
  private closed = false;

  constructor(
    readonly target: ConnectionTarget,
    readonly settings: AdapterSettings,
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
      // Values stay exact: dates as the server prints them, BIGINT/DECIMAL as text (made JSON-safe by mysql-values.ts).
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

  /** A pooled session in READ ONLY mode. */
  async checkout(signal: AbortSignal | undefined, waitMs: number): Promise<PoolConnection> {
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
        throw this.ownQueryError(err);
      }
    }
    return conn;
  }

  /**
   * Nothing a user statement did may outlive its request on the pooled session: after the ROLLBACK,
   * COM_RESET_CONNECTION releases GET_LOCK locks and table locks, drops temporary tables and clears user
   * variables and session settings (so the read-only mode and timeout are set again at the next checkout).
   * False: the session must be destroyed.
   */
  async resetSession(conn: PoolConnection): Promise<boolean> {
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

  /** MySQL or MariaDB, and the version string (asked once per pool). */
  serverFlavor(conn: PoolConnection): Promise<{ flavor: Flavor; version: string }> {
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
  async setSessionTimeout(conn: PoolConnection, flavor: Flavor, timeoutMs: number): Promise<void> {
    const ms = Math.max(1, Math.round(timeoutMs));
    if (this.sessionTimeouts.get(conn) === ms) return;
    // MariaDB counts seconds (fractions allowed) for every statement; MySQL milliseconds, for SELECT only.
    await run(conn, flavor === 'mariadb' ? `SET SESSION max_statement_time = ${ms / 1000}` : `SET SESSION max_execution_time = ${ms}`);
    this.sessionTimeouts.set(conn, ms);
  }

  /** KILL QUERY from a separate short-lived connection (the pool may be exhausted). */
  async killQuery(threadId: number | null): Promise<void> {
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
  async waitUntilStopped(threadId: number | null, limitMs = 3000): Promise<void> {
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

  /** The error of one of our own statements (catalog, probe, sampling): a broken connection or a failed query. */
  ownQueryError(err: unknown): AppError {
    if (isAppError(err)) return err;
    if (isBrokenConnection(err)) return connectionFailed(this.target, err, this.settings);
    if ([1044, 1045, 1049].includes((err as { errno?: number }).errno ?? -1)) return connectionFailed(this.target, err, this.settings);
    return queryFailed('mysql', err, { password: this.target.password });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await new Promise<void>((resolve) => this.pool.end(() => resolve()));
    this.gate?.close();
  }
}

/** A connection-level failure (not an error the server answered with, which carries a sqlMessage). */
export function isBrokenConnection(err: unknown): boolean {
  return isConnectionError('mysql', err) && !(err as { sqlMessage?: string }).sqlMessage;
}

export function noop(): void {}

/** mysql2's stream factory: a socket that resolves and checks the host before connecting (see CheckedSocket). */
function checkedStream(reach: NonNullable<AdapterSettings['reach']>, host: string, port: number, database: string | null): CheckedSocket {
  const socket = new CheckedSocket((h, p) => reach(h, p, database));
  socket.setNoDelay(true);
  socket.once('connect', () => socket.setKeepAlive(true));
  return socket.connect(port, host);
}

/** One statement, rows as arrays. */
export function run(conn: PoolConnection | mysql.Connection, sql: string, params: unknown[] = []): Promise<{ rows: unknown[]; fields: FieldPacket[] }> {
  return new Promise((resolve, reject) => {
    (conn as mysql.Connection).query({ sql, values: params, rowsAsArray: true }, (err, rows, fields) =>
      err ? reject(err) : resolve({ rows: rows as unknown[], fields: (fields ?? []) as FieldPacket[] }),
    );
  });
}
