import type { Dialect } from '@aigis/contracts';
import type { GuardOptions } from './dialect-guard.js';

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

/** Layer 1 of read-only execution: a real parser per dialect decides whether a statement may run. */
export interface SqlGuard {
  check(dialect: Dialect, sql: string, options?: GuardOptions): Promise<GuardVerdict>;
}
