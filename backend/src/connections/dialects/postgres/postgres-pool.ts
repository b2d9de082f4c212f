import net from 'node:net';
import pg from 'pg';
import { AppError, isAppError } from '../../../common/app-error.js';
import type { PoolGate } from '../../../limits/pool-gate.js';
import { CheckedSocket } from '../../reach/checked-socket.js';
import { connectionFailed, isConnectionError, queryFailed } from '../db-error.js';
import type { AdapterSettings, ConnectionTarget } from '../dialect-adapter.js';
import { checkoutWithin } from '../pool-checkout.js';
import { tlsOptionsFor } from '../tls-options.js';
import { gatePgPool } from './postgres-pool-gate.js';
import { jsonSafePgTypes } from './postgres-types.js';

/** Session default for our own statements (catalog queries, probes); user statements set their own with SET LOCAL. */
export const SESSION_STATEMENT_TIMEOUT_MS = 60_000;

export type QueryConfigWithMode = pg.QueryConfig & { queryMode?: 'extended'; rowMode?: 'array' };

/**
 * A pooled client that holds the socket it was given (so a stuck statement can be cut off at once) and learns its
 * server process id when it connects (so a running statement can be cancelled from another connection).
 */
class PooledClient extends pg.Client {
  readonly socket: net.Socket;
  /** pg_backend_pid(), asked for once, pipelined, when the connection opens (PostgresPool's 'connect' listener). */
  backendPid?: Promise<number | null>;

  constructor(config: pg.ClientConfig, openSocket: () => net.Socket) {
    const socket = openSocket();
    super({ ...config, stream: () => socket });
    this.socket = socket;
  }
}

/**
 * A bounded pg Pool for one connection, kept within its owner's connection budget. Every new connection
 * (pooled, cancel requests) resolves and checks the host first when the settings carry a reach check.
 */
export class PostgresPool {
  private readonly pool: pg.Pool;
  private readonly clientConfig: pg.ClientConfig;
  /** The owner's connection budget, when the adapter serves a user (see limits/). */
  private readonly gate: PoolGate<pg.PoolClient> | undefined;
  private closed = false;

  constructor(
    readonly target: ConnectionTarget,
    readonly settings: AdapterSettings,
  ) {
    const reach = settings.reach;
    const openSocket = (): net.Socket =>
      reach ? new CheckedSocket((host, port) => reach(host, port, target.database ?? null)) : new net.Socket();
    this.clientConfig = {
      host: target.host ?? 'localhost',
      port: target.port ?? 5432,
      database: target.database ?? undefined,
      user: target.user ?? undefined,
      password: target.password ?? undefined,
      ssl: tlsOptionsFor(target) ?? false,
      ...(reach ? { stream: openSocket } : {}),
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
    class BoundedClient extends PooledClient {
      constructor(config?: pg.ClientConfig) {
        // pg-pool keeps the password non-enumerable, so a spread alone would drop it.
        super({ ...config, password: clientConfig.password, connectionTimeoutMillis: clientConfig.connectionTimeoutMillis }, openSocket);
      }
    }
    this.pool = new pg.Pool({ ...clientConfig, connectionTimeoutMillis: 0, max: settings.poolMax, idleTimeoutMillis: 30_000, Client: BoundedClient });
    // An idle connection dropped by the server must not crash the process; the next checkout reconnects.
    this.pool.on('error', noop);
    this.pool.on('connect', (client) => {
      if (client instanceof PooledClient) {
        client.backendPid = client.query({ text: 'SELECT pg_backend_pid()', rowMode: 'array' } as QueryConfigWithMode).then(
          (result) => Number((result.rows[0] as unknown[])[0]) || null,
          () => null,
        );
      }
    });
    this.gate = gatePgPool(this.pool, settings);
  }

  async checkout(signal: AbortSignal | undefined, waitMs: number): Promise<pg.PoolClient> {
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

  /** Back to the pool, or (`discard`) closed. */
  release(client: pg.PoolClient, discard: boolean): void {
    client.off('error', noop);
    client.release(discard ? true : undefined);
  }

  /** Cuts the client's socket now (ending a pipelined client politely would wait for its queries to finish). */
  destroy(client: pg.PoolClient): void {
    if (client instanceof PooledClient) client.socket.destroy();
  }

  /** Asks the server to cancel the client's running statement, from a separate short-lived connection. */
  async cancel(client: pg.PoolClient): Promise<void> {
    const pid = client instanceof PooledClient ? await (client.backendPid ?? null) : null;
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

  /** The error of one of our own statements (catalog, probe, sampling): a broken connection or a failed query. */
  ownQueryError(err: unknown): AppError {
    if (isAppError(err)) return err;
    if (isConnectionError('postgres', err)) return connectionFailed(this.target, err, this.settings);
    return queryFailed('postgres', err, { password: this.target.password });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
    this.gate?.close();
  }
}

export function noop(): void {}
