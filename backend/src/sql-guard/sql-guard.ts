import type { Dialect } from '@aigis/contracts';
import type { TablePolicy } from './table-policy.js';

export type GuardVerdict =
  | {
      ok: true;
      /** The statement to run: trimmed, without trailing semicolons. */
      sql: string;
      /** Whether the outermost query already has a LIMIT / FETCH FIRST (MySQL appends one when not). */
      hasTopLevelLimit: boolean;
    }
  | {
      ok: false;
      /** Why, in words a user understands: "statement 2 of 2 is DELETE", "function pg_read_file is not allowed". */
      reason: string;
    };

/** What the guard needs to know about the connection a statement runs on. */
export interface GuardOptions {
  /** Functions of their own the connection's owner allows by name (`my_fn`, `public.my_fn`). */
  allowedFunctions?: readonly string[];
  /** The owner's allowed and excluded tables; none set = no table policy. */
  tablePolicy?: TablePolicy;
  /** Where an unqualified name resolves (MySQL: the connection's database); PostgreSQL `public` and SQLite `main` by default. */
  defaultSchema?: string | null;
}

/** Layer 1 of read-only execution: a real parser per dialect decides whether a statement may run. */
export interface SqlGuard {
  check(dialect: Dialect, sql: string, options?: GuardOptions): Promise<GuardVerdict>;
}
