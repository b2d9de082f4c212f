import type pg from 'pg';
import { PoolGate } from '../../../limits/pool-gate.js';
import type { AdapterSettings } from '../dialect-adapter.js';

/**
 * Keeps a pg pool within its owner's connection budget (none when the settings carry no budget).
 * pg-pool has no call that closes one idle client; it removes and ends an idle client that reports an
 * error, so that is how an idle client is shed.
 */
export function gatePgPool(pool: pg.Pool, settings: AdapterSettings): PoolGate<pg.PoolClient> | undefined {
  if (!settings.backends) return undefined;
  const gate = new PoolGate<pg.PoolClient>(settings.backends, settings.poolMax, (client) =>
    client.emit('error', new Error('closed to stay within the per-user connection limit')),
  );
  pool.on('release', (err, client) => gate.released(client, Boolean(err)));
  pool.on('remove', (client) => gate.closed(client));
  return gate;
}
