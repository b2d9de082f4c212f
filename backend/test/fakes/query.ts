import type { Dialect, QueryEstimate } from '@aigis/contracts';
import type { ReadOnlyExecutor, ReadOnlyQuery } from '../../src/query/read-only-executor.js';
import type { QueryAuditRepository } from '../../src/storage/repositories/query-audit.repository.js';
import type { ReviewDecisionsRepository } from '../../src/storage/repositories/review-decisions.repository.js';
import type { ReviewDecisionsTable } from '../../src/storage/schema.js';

/**
 * The executor's guard and EXPLAIN seam: `estimate` answers explain (an Error is thrown as is), `refuse` makes the
 * guard throw for a statement. Every call is kept for assertions.
 */
export class FakeReadOnlyExecutor implements Pick<ReadOnlyExecutor, 'explain' | 'check'> {
  estimate: QueryEstimate | Error = { cost: 1, rows: 1, scans: [] };
  refuse: ((sql: string) => Error | null) | null = null;
  readonly explained: ReadOnlyQuery[] = [];
  readonly checked: ReadOnlyQuery[] = [];

  constructor(private readonly dialect: Dialect = 'postgres') {}

  async explain(query: ReadOnlyQuery): Promise<{ dialect: Dialect; estimate: QueryEstimate }> {
    this.explained.push(query);
    if (this.estimate instanceof Error) throw this.estimate;
    return { dialect: this.dialect, estimate: this.estimate };
  }

  async check(query: ReadOnlyQuery): Promise<string> {
    this.checked.push(query);
    const refusal = this.refuse?.(query.sql);
    if (refusal) throw refusal;
    return query.sql;
  }
}

/** The audit log's successful statements, per user, connection and thread (newest last). */
export class FakeQueryAudit implements Pick<QueryAuditRepository, 'okSqlInThread'> {
  readonly ok: { userId: string; connectionId: string; threadId: string; sql: string }[] = [];

  ran(userId: string, connectionId: string, threadId: string, sql: string): void {
    this.ok.push({ userId, connectionId, threadId, sql });
  }

  async okSqlInThread(userId: string, connectionId: string, threadId: string, limit: number): Promise<string[]> {
    return this.ok
      .filter((e) => e.userId === userId && e.connectionId === connectionId && e.threadId === threadId)
      .map((e) => e.sql)
      .reverse()
      .slice(0, limit);
  }
}

/** Review decisions keyed by proposal id: the first claim wins, as the table's primary key makes it. */
export class FakeReviewDecisions implements Pick<ReviewDecisionsRepository, 'claim' | 'find'> {
  readonly rows = new Map<string, ReviewDecisionsTable>();

  async claim(entry: ReviewDecisionsTable): Promise<boolean> {
    if (this.rows.has(entry.id)) return false;
    this.rows.set(entry.id, { ...entry });
    return true;
  }

  async find(id: string): Promise<ReviewDecisionsTable | undefined> {
    return this.rows.get(id);
  }
}
