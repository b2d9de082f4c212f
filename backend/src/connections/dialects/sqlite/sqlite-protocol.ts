import type { TruncatedReason } from '../result-budget.js';
import type { SqlitePlanRow } from './sqlite-explain.js';
import type { SqliteCatalog } from './sqlite.catalog.js';

/**
 * The messages between the API and its SQLite process (sqlite-child.ts), one request and one reply per operation.
 * Advanced serialization carries them, so BigInt and bytes travel as they are.
 */
export interface SqliteOps {
  /** Opens the file read-only (and query_only); the answer is SQLite's version. */
  open: { request: { file: string }; reply: { version: string } };
  /** One statement the guard accepted, rows as arrays with every value cut, stopped at the row cap or the byte budget. */
  exec: {
    request: { sql: string; maxRows: number; cellMaxBytes: number; resultMaxBytes: number };
    reply: { columns: string[]; rows: unknown[][]; truncated: boolean; reason: TruncatedReason | null };
  };
  /** sqlite_master, pragma_table_xinfo and pragma_foreign_key_list of every user relation. */
  catalog: { request: Record<string, never>; reply: SqliteCatalog & { statements: number } };
  /** Sample rows of one relation (values cut), and its row count up to `countCap` (0: not counted). */
  sample: { request: { table: string; limit: number; countCap: number }; reply: { columns: string[]; rows: unknown[][]; count: number | null } };
  /** EXPLAIN QUERY PLAN of a statement the guard accepted, and the file's tables. */
  plan: { request: { sql: string }; reply: { plan: SqlitePlanRow[]; tables: string[] } };
  /** Row counts for an estimate: sqlite_stat1 when ANALYZE has run, else counted up to `countCap`. */
  tableRows: { request: { tables: string[]; countCap: number }; reply: { counts: Record<string, number> } };
}

export type SqliteOp = keyof SqliteOps;

/** A request as sent: its operation, its fields and the id its reply carries. */
export type SqliteRequest<K extends SqliteOp = SqliteOp> = { [P in K]: { id: number; op: P } & SqliteOps[P]['request'] }[K];

export type SqliteReply<K extends SqliteOp = SqliteOp> =
  | { id: number; ok: true; result: SqliteOps[K]['reply'] }
  | { id: number; ok: false; error: { message: string; code?: string } };
