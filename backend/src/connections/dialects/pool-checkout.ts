import { Logger } from '@nestjs/common';
import { AppError, isAppError } from '../../common/app-error.js';
import type { PoolGate } from '../../limits/pool-gate.js';
import { connectFailed, redactSecret } from './db-error.js';
import type { AdapterSettings, ConnectionTarget } from './dialect-adapter.js';
import { delay, waitFor } from './execution-control.js';

const logger = new Logger('Connections');

/**
 * Waits for a pooled connection: a pool that stays busy answers QUERY_TIMEOUT, a server that cannot
 * be reached CONNECTION_FAILED, a user holding all their connections RATE_LIMITED (through `gate`).
 * A connection that arrives after the caller gave up is released.
 * An unreachable server answers no sooner than the connect timeout, so a refused port and a filtered one
 * take the same time.
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
  const started = Date.now();
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
    const { target, settings } = options;
    const { error, unreachable } = connectFailed(target, err, settings);
    const detail = redactSecret(`${(err as { code?: string }).code ?? ''} ${(err as { reason?: string }).reason ?? (err as Error)?.message ?? String(err)}`, target.password);
    logger.warn(`connection ${target.id} to ${target.host ?? ''}:${target.port ?? ''} failed: ${detail.trim()}`);
    if (unreachable) await delay(Math.max(0, started + settings.connectTimeoutMs - Date.now()));
    throw error;
  }
}
