import type { GuardVerdict } from './sql-guard.js';
import type { TablePolicy } from './table-policy.js';

/** What the guard needs to know about the connection a statement runs on. */
export interface GuardOptions {
  /** Functions of their own the connection's owner allows by name (`my_fn`, `public.my_fn`). */
  allowedFunctions?: readonly string[];
  /** The owner's allowed and excluded tables; none set = no table policy. */
  tablePolicy?: TablePolicy;
  /** Where an unqualified name resolves (MySQL: the connection's database); PostgreSQL `public` and SQLite `main` by default. */
  defaultSchema?: string | null;
}

/** The guard for one dialect; ParserSqlGuard dispatches to one of these. */
export interface DialectGuard {
  check(sql: string, options?: GuardOptions): Promise<GuardVerdict>;
}

export function accept(sql: string, hasTopLevelLimit: boolean): GuardVerdict {
  return { ok: true, sql, hasTopLevelLimit };
}

export function reject(reason: string): GuardVerdict {
  return { ok: false, reason };
}
