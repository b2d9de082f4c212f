import type { Connection, ConnectionTestResult, Dialect, QueryResponse, SchemaResponse, SslMode } from '@aigis/contracts';
import { api } from '../../lib/api-client';

/** `POST /api/connections` (and PATCH with any subset; an omitted password stays unchanged). */
export type ConnectionInput =
  | { name: string; dialect: 'postgres' | 'mysql'; host: string; port: number; database: string; user: string; password?: string; ssl_mode?: SslMode; ssl_ca?: string | null; allowed_functions?: string[] }
  | { name: string; dialect: 'sqlite'; database: string; allowed_functions?: string[] };

export interface SqliteFiles {
  root: string;
  files: { path: string; size_bytes: number }[];
}

const base = (id: string) => `/connections/${encodeURIComponent(id)}`;

export const connectionsApi = {
  list: () => api.get<Connection[]>('/connections'),
  get: (id: string) => api.get<Connection>(base(id)),
  create: (input: ConnectionInput) => api.post<Connection>('/connections', input),
  update: (id: string, input: Partial<ConnectionInput> & { dialect?: Dialect }) => api.patch<Connection>(base(id), input),
  remove: (id: string) => api.delete(base(id)),
  test: (id: string) => api.post<ConnectionTestResult>(`${base(id)}/test`),
  schema: (id: string, refresh = false) => api.get<SchemaResponse>(`${base(id)}/schema${refresh ? '?refresh=true' : ''}`),
  query: (id: string, sql: string, limit?: number) => api.post<QueryResponse>(`${base(id)}/query`, { sql, limit }),
  sqliteFiles: () => api.get<SqliteFiles>('/connections/sqlite-files'),
};
