import type { SchemaResponse, SchemaTable } from '@aigis/contracts';
import type { SchemaService } from '../../src/connections/schema.service.js';
import type { FakeConnections } from './connections.js';

/** A fixed introspection per connection, behind the same ownership check as the real one. */
export class FakeSchemaService implements Pick<SchemaService, 'get'> {
  readonly calls: string[] = [];

  constructor(
    private readonly connections: FakeConnections,
    private readonly tables: SchemaTable[] = [],
  ) {}

  async get(userId: string, connectionId: string): Promise<SchemaResponse> {
    const connection = await this.connections.get(userId, connectionId);
    this.calls.push(connectionId);
    const markdown = this.tables.map((t) => `## ${t.name}`).join('\n');
    return { dialect: connection.dialect, tables: this.tables, markdown, markdown_mode: 'full', introspected_at: '2026-01-01T00:00:00.000Z', elapsed_ms: 1, catalog_queries: 1 };
  }
}
