import type { GuardOptions, GuardVerdict } from './sql-guard.js';

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
