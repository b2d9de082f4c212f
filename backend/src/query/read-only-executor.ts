import crypto from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Dialect, QueryEstimate, QueryResponse } from '@aigis/contracts';
import { AppError, isAppError } from '../common/app-error.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { ConnectionsService } from '../connections/connections.service.js';
import type { ConnectionTarget, DialectAdapter } from '../connections/dialects/dialect-adapter.js';
import { ViewPolicy } from '../connections/view-policy.service.js';
import { UserLimits } from '../limits/user-limits.service.js';
import type { GuardOptions, SqlGuard } from '../sql-guard/sql-guard.js';
import { QueryAuditRepository } from '../storage/repositories/query-audit.repository.js';

export const SQL_GUARD = Symbol('SQL_GUARD');

export interface ReadOnlyQuery {
  userId: string;
  connectionId: string;
  sql: string;
  /** Row cap for this query (default ROW_LIMIT, at most ROW_LIMIT_MAX). */
  limit?: number;
  threadId?: string | null;
  modelName?: string | null;
  signal?: AbortSignal;
  /** The review decision that approved this query (audit link). */
  reviewId?: string | null;
}

type GuardTarget = Pick<ConnectionTarget, 'dialect' | 'allowedFunctions' | 'tablePolicy' | 'database'>;

/** What the guard needs from a connection: its functions, its table policy, and where unqualified names resolve (MySQL: its database). */
function guardOptions(target: GuardTarget): GuardOptions {
  return {
    allowedFunctions: target.allowedFunctions,
    tablePolicy: target.tablePolicy,
    defaultSchema: target.dialect === 'mysql' ? (target.database ?? null) : undefined,
  };
}

const AUDIT_STATUS: Partial<Record<string, string>> = {
  SQL_REJECTED: 'rejected',
  QUERY_TIMEOUT: 'timeout',
  QUERY_CANCELLED: 'cancelled',
};

/**
 * The only way user SQL reaches a database. All layers, always: the parser guard, a read-only
 * transaction that is rolled back with a statement timeout (in the adapter), the row cap, and the audit log.
 */
@Injectable()
export class ReadOnlyExecutor {
  private readonly logger = new Logger(ReadOnlyExecutor.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SQL_GUARD) private readonly guard: SqlGuard,
    private readonly connections: ConnectionsService,
    private readonly audit: QueryAuditRepository,
    private readonly clock: Clock,
    private readonly limits: UserLimits,
    private readonly views: ViewPolicy,
  ) {}

  async run(query: ReadOnlyQuery): Promise<QueryResponse> {
    // Every path that runs user SQL comes here, so the per-user query limit is taken here (RATE_LIMITED when full).
    const release = this.limits.query(query.userId);
    try {
      return await this.runWithinLimit(query);
    } finally {
      release();
    }
  }

  private async runWithinLimit(query: ReadOnlyQuery): Promise<QueryResponse> {
    const started = performance.now();
    const { adapter, target } = await this.connections.adapterFor(query.userId, query.connectionId);
    const limits = this.connections.executionLimits(target);
    const limit = Math.min(query.limit ?? limits.rowLimit, limits.maxRows);
    try {
      const verdict = await this.guard.check(target.dialect, query.sql, await this.guardOptionsFor(adapter, target, query.signal));
      if (!verdict.ok) throw new AppError('SQL_REJECTED', `SQL rejected: ${verdict.reason}`, { reason: verdict.reason });
      const result = await adapter.executeReadOnly(verdict.sql, {
        maxRows: limit,
        timeoutMs: limits.timeoutMs,
        signal: query.signal,
        appendLimit: !verdict.hasTopLevelLimit,
        budgets: { cellMaxBytes: this.config.RESULT_CELL_MAX_BYTES, resultMaxBytes: this.config.RESULT_MAX_BYTES },
      });
      const elapsed = Math.round(performance.now() - started);
      await this.record(query, 'ok', { rowCount: result.rows.length, elapsed });
      return {
        columns: result.columns,
        rows: result.rows,
        row_count: result.rows.length,
        truncated: result.truncated,
        ...(result.truncated && result.truncatedReason ? { truncated_reason: result.truncatedReason } : {}),
        elapsed_ms: elapsed,
        sql_executed: result.sqlExecuted,
      };
    } catch (error) {
      return await this.auditFailure(query, started, error);
    }
  }

  /** Audits a statement that failed (refused by the guard, in the database, or on a bound), then rethrows its error. */
  private async auditFailure(query: ReadOnlyQuery, started: number, error: unknown): Promise<never> {
    const code = isAppError(error) ? error.code : 'INTERNAL';
    await this.record(query, AUDIT_STATUS[code] ?? 'failed', {
      elapsed: Math.round(performance.now() - started),
      code,
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }

  /**
   * The database's estimate of a query, before it runs (review before run): the same guard, then EXPLAIN in a
   * read-only transaction under the statement timeout. A rejection or a failure is audited like one from run();
   * a successful estimate is not an execution and is not.
   */
  async explain(query: ReadOnlyQuery): Promise<{ dialect: Dialect; estimate: QueryEstimate }> {
    // An EXPLAIN reaches the database too: it takes one of the user's query slots like run().
    const release = this.limits.query(query.userId);
    try {
      return await this.explainWithinLimit(query);
    } finally {
      release();
    }
  }

  private async explainWithinLimit(query: ReadOnlyQuery): Promise<{ dialect: Dialect; estimate: QueryEstimate }> {
    const { adapter, target } = await this.connections.adapterFor(query.userId, query.connectionId);
    const sql = await this.check(query, { adapter, target });
    const started = performance.now();
    try {
      const estimate = await adapter.explain(sql, { timeoutMs: this.connections.executionLimits(target).timeoutMs, signal: query.signal });
      return { dialect: target.dialect, estimate };
    } catch (error) {
      // The statement failed in the database (as it would have run): audited like a failed execution.
      return await this.auditFailure(query, started, error);
    }
  }

  /** The guard alone (an edited query before it is accepted for running): the accepted SQL, or SQL_REJECTED, audited. */
  async check(query: ReadOnlyQuery, connection?: { adapter: DialectAdapter; target: ConnectionTarget }): Promise<string> {
    const { adapter, target } = connection ?? (await this.connections.adapterFor(query.userId, query.connectionId));
    const verdict = await this.guard.check(target.dialect, query.sql, await this.guardOptionsFor(adapter, target, query.signal));
    if (verdict.ok) return verdict.sql;
    const error = new AppError('SQL_REJECTED', `SQL rejected: ${verdict.reason}`, { reason: verdict.reason });
    await this.record(query, 'rejected', { elapsed: 0, code: error.code, message: error.message });
    throw error;
  }

  /** The guard's options with the table policy as it applies: views that read an excluded table are excluded too. */
  private async guardOptionsFor(adapter: DialectAdapter, target: ConnectionTarget, signal?: AbortSignal): Promise<GuardOptions> {
    return guardOptions({ ...target, tablePolicy: await this.views.effective(adapter, target, signal) });
  }

  /** The audit must never turn a good answer into an error: a failed write is logged instead. */
  private async record(
    query: ReadOnlyQuery,
    status: string,
    outcome: { rowCount?: number; elapsed: number; code?: string; message?: string },
  ): Promise<void> {
    try {
      await this.audit.insert({
        id: crypto.randomUUID(),
        user_id: query.userId,
        connection_id: query.connectionId,
        thread_id: query.threadId ?? null,
        model_name: query.modelName ?? null,
        sql: query.sql.slice(0, 100_000),
        status,
        row_count: outcome.rowCount ?? null,
        elapsed_ms: outcome.elapsed,
        error_code: outcome.code ?? null,
        error_message: outcome.message?.slice(0, 2000) ?? null,
        review_id: query.reviewId ?? null,
        created_at: this.clock.iso(),
      });
    } catch (error) {
      this.logger.error(`Could not write the query audit entry: ${(error as Error).message}`);
    }
  }
}
