import type { AdapterSettings, ConnectionTarget, DialectAdapter } from './dialect-adapter.js';
import { MysqlAdapter } from './mysql/mysql.adapter.js';
import { PostgresAdapter } from './postgres/postgres.adapter.js';
import { SqliteAdapter } from './sqlite/sqlite.adapter.js';

export type { AdapterSettings, ConnectionTarget, DialectAdapter } from './dialect-adapter.js';
export { classifyDbError } from './db-error.js';
export { quoteIdent, quoteQualified, displayIdent, displayQualified } from './quote-ident.js';
export { toJsonSafe } from './json-safe.js';

/** The adapter for a connection's dialect. Nothing connects until the first call. */
export function createAdapter(target: ConnectionTarget, settings: AdapterSettings): DialectAdapter {
  switch (target.dialect) {
    case 'postgres':
      return new PostgresAdapter(target, settings);
    case 'mysql':
      return new MysqlAdapter(target, settings);
    case 'sqlite':
      return new SqliteAdapter(target, settings);
  }
}
