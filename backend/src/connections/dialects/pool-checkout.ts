import { AppError, isAppError } from '../../common/app-error.js';
import type { PoolGate } from '../../limits/pool-gate.js';
import { connectionFailed } from './db-error.js';
import type { AdapterSettings, ConnectionTarget } from './dialect-adapter.js';
import { waitFor } from './execution-control.js';

/**
 * Waits for a pooled connection: a pool that stays busy answers QUERY_TIMEOUT, a server that cannot
 * be reached CONNECTION_FAILED, a user holding all their connections RATE_LIMITED (through `gate`).
 * A connection that arrives after the caller gave up is released.
 */
export async function checkoutWithin<C extends object>(
  connect: () => Promise<C>,
  options: {
    signal?: AbortSignal;
    waitMs: number;
    settings: AdapterSettings;
    target: ConnectionTarget;
    release: (connection: C) => void;
    gate?: PoolGate<C>;
  },
): Promise<C> {
  const waitLimit = Math.max(options.waitMs, options.settings.connectTimeoutMs + 1000);
  const acquire = options.gate ? options.gate.checkout(connect, { signal: options.signal, waitMs: waitLimit + 1000 }) : connect();
  try {
    return await waitFor(acquire, {
      signal: options.signal,
      waitMs: waitLimit,
      onTimeout: () =>
        new AppError('QUERY_TIMEOUT', `all ${options.settings.poolMax} connections to this database stayed busy for ${Math.round(waitLimit / 1000)} s; try again`),
      discard: options.release,
    });
  } catch (err) {
    if (isAppError(err)) throw err;
    throw connectionFailed(options.target, err, options.settings);
  }
}
