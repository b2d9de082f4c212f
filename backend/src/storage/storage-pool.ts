import { Logger } from '@nestjs/common';
import pg from 'pg';

const logger = new Logger('Storage');

/** Marks errors raised while opening a storage connection: whatever the server said, storage is unavailable. */
const CONNECT_FAILURE = Symbol('storageConnectFailure');

export function isStorageConnectFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[CONNECT_FAILURE] === true;
}

function markConnectFailure(error: unknown): unknown {
  if (typeof error === 'object' && error !== null) (error as Record<symbol, unknown>)[CONNECT_FAILURE] = true;
  return error;
}

type ConnectCallback = (err: Error | null, client?: pg.Client) => void;

class StorageClient extends pg.Client {
  // pg-pool connects with a callback; anything else with the promise form.
  override connect(): Promise<pg.Client>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
    if (callback) {
      return super.connect(((err: Error | null, client?: pg.Client) => callback(err ? (markConnectFailure(err) as Error) : null, client)) as (err: Error) => void);
    }
    return super.connect().catch((err: unknown) => {
      throw markConnectFailure(err);
    });
  }
}

/**
 * A pool for the app's own PostgreSQL storage (app tables, checkpoints) that survives the server going away:
 * the pool and every client it makes have error listeners (an idle or checked-out connection whose backend is
 * terminated would otherwise end the process), connecting is bounded, and the next request simply connects again.
 */
export function createStoragePool(connectionString: string, options: { max: number; name: string; connectTimeoutMs?: number }): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    idleTimeoutMillis: 30_000,
    Client: StorageClient,
  });
  pool.on('error', (error) => logger.warn(`${options.name}: an idle storage connection failed: ${error.message}`));
  pool.on('connect', (client) => {
    client.on('error', (error) => logger.warn(`${options.name}: a storage connection failed: ${error.message}`));
  });
  return pool;
}
