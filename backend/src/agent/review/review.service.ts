import crypto from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { QueryEstimate, ReviewProposal } from '@aigis/contracts';
import { AppError, isAppError } from '../../common/app-error.js';
import { Clock } from '../../common/clock.js';
import { ReadOnlyExecutor } from '../../query/read-only-executor.js';
import { ConnectionsRepository } from '../../storage/repositories/connections.repository.js';
import { ReviewDecisionsRepository } from '../../storage/repositories/review-decisions.repository.js';
import { ThreadsRepository } from '../../storage/repositories/threads.repository.js';
import type { PendingReview } from '../state.js';
import { DEFAULT_REVIEW_THRESHOLDS } from '../../connections/review-defaults.js';
import { boundedEstimate, effectiveReviewMode, reviewReason } from './review-policy.js';

export interface ReviewRequest {
  userId: string;
  connectionId: string;
  threadId: string;
  sql: string;
  toolCallId: string;
  toolName: string;
  direct: boolean;
  /** For the audit of a failed estimate (null for a `SQL:` message). */
  modelName?: string | null;
  signal?: AbortSignal;
}

/** Errors of the estimate that the query itself would hit: they go back to the caller (the SQL is corrected). */
const QUERY_ERRORS = new Set(['SQL_REJECTED', 'QUERY_FAILED', 'QUERY_CANCELLED', 'CONNECTION_FAILED', 'SECRET_UNREADABLE', 'NOT_FOUND']);

/**
 * Review before run: decides, before a query executes, whether the user sees it first (the thread's or the
 * connection's mode; in `expensive` mode the database's own EXPLAIN estimate against the connection's thresholds),
 * and records each decision.
 */
@Injectable()
export class ReviewService {
  constructor(
    private readonly executor: ReadOnlyExecutor,
    private readonly connections: ConnectionsRepository,
    private readonly threads: ThreadsRepository,
    private readonly decisions: ReviewDecisionsRepository,
    private readonly clock: Clock,
  ) {}

  /** A pending review when the query must be shown first; null when it may run now. Query errors are thrown. */
  async assess(request: ReviewRequest): Promise<PendingReview | null> {
    const connection = await this.connections.findOwned(request.userId, request.connectionId);
    if (!connection) throw AppError.notFound('Connection');
    const thread = await this.threads.findOwned(request.userId, request.threadId);
    const mode = effectiveReviewMode(thread?.review, connection.review);
    if (mode === 'never') return null;
    let estimate: QueryEstimate | null = null;
    let estimateError: string | undefined;
    try {
      const explained = await this.executor.explain({ userId: request.userId, connectionId: request.connectionId, sql: request.sql, threadId: request.threadId, modelName: request.modelName, signal: request.signal });
      estimate = boundedEstimate(explained.estimate);
    } catch (error) {
      if (!isAppError(error) || QUERY_ERRORS.has(error.code)) throw error;
      estimateError = error.message;
    }
    const thresholds = {
      cost: connection.review_max_cost ?? DEFAULT_REVIEW_THRESHOLDS.cost,
      rows: connection.review_max_rows ?? DEFAULT_REVIEW_THRESHOLDS.rows,
      scan_rows: connection.review_scan_rows ?? DEFAULT_REVIEW_THRESHOLDS.scan_rows,
    };
    const reason = reviewReason(mode, estimate, thresholds, estimateError);
    if (!reason) return null;
    const proposal: ReviewProposal = {
      id: crypto.randomUUID(),
      tool_call_id: request.toolCallId,
      sql: request.sql,
      dialect: connection.dialect,
      estimate,
      reason,
      mode,
      direct: request.direct,
    };
    return { proposal, user_id: request.userId, connection_id: request.connectionId, tool_name: request.toolName };
  }

  /**
   * Records the user's decision on a pending proposal, once: a second decision on the same proposal (a double
   * click, two tabs, two API processes) answers REVIEW_ALREADY_DECIDED. An edited SQL must pass the guard first.
   */
  async decide(
    threadId: string,
    pending: PendingReview,
    decision: { decision: 'approved' | 'denied' | 'superseded'; sql?: string | null; reason?: string | null },
  ): Promise<string | null> {
    let approved: string | null = null;
    if (decision.decision === 'approved') {
      approved = decision.sql ?? pending.proposal.sql;
      // The guard again on what will run (an edit may be anything); a refusal is audited and leaves the proposal pending.
      await this.executor.check({ userId: pending.user_id, connectionId: pending.connection_id, sql: approved, threadId, reviewId: pending.proposal.id });
    }
    const recorded = await this.decisions.claim({
      id: pending.proposal.id,
      user_id: pending.user_id,
      connection_id: pending.connection_id,
      thread_id: threadId,
      decision: decision.decision,
      proposed_sql: pending.proposal.sql,
      approved_sql: approved,
      reason: decision.reason ?? null,
      estimate: pending.proposal.estimate ? JSON.stringify(pending.proposal.estimate) : null,
      created_at: this.clock.iso(),
    });
    if (!recorded) throw new AppError('REVIEW_ALREADY_DECIDED', 'This query was already approved or refused; reload the conversation.');
    return approved;
  }
}
