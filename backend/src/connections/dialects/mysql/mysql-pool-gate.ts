import type { PoolConnection, Pool as MysqlPool } from 'mysql2';
import { PoolGate } from '../../../limits/pool-gate.js';
import type { AdapterSettings } from '../dialect-adapter.js';

/**
 * Keeps a mysql2 pool within its owner's connection budget (none when the settings carry no budget): an idle
 * connection is shed with destroy(), which takes it out of the pool. A connection counts as closed when its
 * socket has closed (mysql2 emits no event of its own for every path).
 */
export function gateMysqlPool(pool: MysqlPool, settings: AdapterSettings): PoolGate<PoolConnection> | undefined {
  if (!settings.backends) return undefined;
  const gate = new PoolGate<PoolConnection>(settings.backends, settings.poolMax, (connection) => connection.destroy());
  pool.on('connection', (connection) => {
    const socket = (connection as unknown as { stream?: NodeJS.EventEmitter }).stream;
    if (socket) socket.once('close', () => gate.closed(connection));
    else (connection as unknown as NodeJS.EventEmitter).once('end', () => gate.closed(connection));
  });
  pool.on('release', (connection) => gate.released(connection, false));
  return gate;
}
