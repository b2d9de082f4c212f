import { AppError, isAppError } from '../common/app-error.js';
import { isStorageConnectFailure } from './storage-pool.js';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const CONNECTION_LOST =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable|Cannot use a pool after calling end/i;

/**
 * Whether an error means the app's own storage cannot be reached right now (server down, backend terminated,
 * connections refused, SQLite file locked or failing), rather than a bug. User-database errors never get here
 * raw: the adapters turn them into AppErrors first.
 */
export function isStorageOutage(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || isAppError(error)) return false;
  if (isStorageConnectFailure(error)) return true;
  const { code, message } = error as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  if (typeof code === 'string') {
    if (NETWORK_CODES.has(code)) return true;
    // PostgreSQL: connection exceptions, admin/crash shutdown, cannot connect now, too many connections.
    if (/^08/.test(code) || /^57P0[1-3]$/.test(code) || code === '53300') return true;
    // SQLite (embedded storage): busy beyond busy_timeout, disk I/O error, disk full.
    if (/^SQLITE_(BUSY|IOERR|FULL|CANTOPEN)/.test(code)) return true;
  }
  return CONNECTION_LOST.test(text);
}

/** What a user is told while the app storage is out (503, retried after a few seconds). */
export function storageUnavailable(): AppError {
  return new AppError('STORAGE_UNAVAILABLE', 'The app storage is not reachable right now. Try again in a few seconds.');
}
