import type {
  Connection,
  ConnectionTestResult,
  CreateConnectionRequest,
  QueryRequest,
  QueryResponse,
  SchemaResponse,
  SqliteFilesResponse,
  UpdateConnectionRequest,
} from '@aigis/contracts';
import { api } from '../../lib/api-client';

const base = (id: string) => `/connections/${encodeURIComponent(id)}`;

export const connectionsApi = {
  list: () => api.get<Connection[]>('/connections'),
  get: (id: string) => api.get<Connection>(base(id)),
  create: (input: CreateConnectionRequest) => api.post<Connection>('/connections', input),
  /** Any subset of the create fields; an omitted password stays unchanged. */
  update: (id: string, input: UpdateConnectionRequest) => api.patch<Connection>(base(id), input),
  remove: (id: string) => api.delete(base(id)),
  test: (id: string) => api.post<ConnectionTestResult>(`${base(id)}/test`),
  schema: (id: string, refresh = false) => api.get<SchemaResponse>(`${base(id)}/schema${refresh ? '?refresh=true' : ''}`),
  query: (id: string, sql: string, limit?: number) => api.post<QueryResponse>(`${base(id)}/query`, { sql, limit } satisfies QueryRequest),
  sqliteFiles: () => api.get<SqliteFilesResponse>('/connections/sqlite-files'),
};
