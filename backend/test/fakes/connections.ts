import type { Connection } from '@aigis/contracts';
import { AppError } from '../../src/common/app-error.js';
import { toApiConnection, type ConnectionsService } from '../../src/connections/connections.service.js';
import type { ConnectionsRepository } from '../../src/storage/repositories/connections.repository.js';
import type { ConnectionsTable } from '../../src/storage/schema.js';

/** A stored connection row with the defaults a new one gets; `overrides` set the rest. */
export function connectionRow(overrides: Partial<ConnectionsTable> & Pick<ConnectionsTable, 'id' | 'user_id'>): ConnectionsTable {
  return {
    name: 'Sales',
    dialect: 'postgres',
    host: 'db.example',
    port: 5432,
    database: 'sales',
    username: 'reader',
    ssl: 1,
    ssl_mode: 'require',
    ssl_ca: null,
    elevated_privileges: null,
    sealed_password: 'v1.k.iv.tag.ct',
    is_demo: 0,
    allowed_functions: '[]',
    allowed_tables: '[]',
    excluded_tables: '[]',
    row_limit: null,
    statement_timeout_ms: null,
    review: 'never',
    review_max_cost: null,
    review_max_rows: null,
    review_scan_rows: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Connection rows in memory: what a service's ownership check reads. */
export class FakeConnectionsRepository implements Pick<ConnectionsRepository, 'findOwned'> {
  readonly rows: ConnectionsTable[] = [];

  add(row: Parameters<typeof connectionRow>[0]): ConnectionsTable {
    const full = connectionRow(row);
    this.rows.push(full);
    return full;
  }

  async findOwned(userId: string, id: string): Promise<ConnectionsTable | undefined> {
    return this.rows.find((r) => r.user_id === userId && r.id === id);
  }
}

/** ConnectionsService's ownership answer over the fake rows: the caller's connection, else 404 like the real one. */
export class FakeConnections implements Pick<ConnectionsService, 'get'> {
  constructor(readonly repository = new FakeConnectionsRepository()) {}

  async get(userId: string, id: string): Promise<Connection> {
    const row = await this.repository.findOwned(userId, id);
    if (!row) throw AppError.notFound('Connection');
    return toApiConnection(row);
  }
}
