import { Injectable } from '@nestjs/common';
import { ToolMessage } from '@langchain/core/messages';
import type { ConfirmRequest, ReviewProposal } from '@aigis/contracts';
import { AppError, isAppError } from '../../common/app-error.js';
import { AgentService } from '../agent.service.js';
import type { PendingReview } from '../state.js';
import { unansweredCalls } from '../tool-calls.js';
import type { ReviewAnswer } from './review-answer.js';
import { ReviewService } from './review.service.js';

/**
 * Review before run on a thread: what is pending, the user's decision turned into the value the graph resumes
 * with, and a pending proposal superseded by a new message.
 */
@Injectable()
export class ThreadReviews {
  constructor(
    private readonly agent: AgentService,
    private readonly review: ReviewService,
  ) {}

  /** The proposal the thread's graph is paused on (its checkpoint waits in the review node), or null. */
  async pending(threadId: string): Promise<PendingReview | null> {
    const snapshot = await this.agent.graph.getState({ configurable: { thread_id: threadId } });
    const pending = (snapshot.values as { pending_review?: PendingReview | null }).pending_review ?? null;
    return pending && snapshot.next.includes('review') ? pending : null;
  }

  async pendingProposal(threadId: string): Promise<ReviewProposal | null> {
    return (await this.pending(threadId))?.proposal ?? null;
  }

  /**
   * Validates and records a decision before anything streams (so errors are plain HTTP answers): 409 when
   * nothing is pending or another proposal is, 400 SQL_REJECTED when an edited SQL fails the guard (the proposal
   * stays pending). Returns the value to resume the graph with.
   */
  async decide(threadId: string, request: ConfirmRequest): Promise<{ answer: ReviewAnswer; pending: PendingReview }> {
    const pending = await this.pending(threadId);
    if (!pending) throw new AppError('NO_PENDING_REVIEW', 'No query is waiting for your decision in this conversation.');
    if (request.proposal_id && request.proposal_id !== pending.proposal.id) {
      throw new AppError('REVIEW_STALE', 'This proposal is no longer the one waiting; reload the conversation.', { pending: pending.proposal.id });
    }
    if (request.decision === 'approve') {
      const sql = await this.review.decide(threadId, pending, { decision: 'approved', sql: request.sql ?? null });
      return { answer: { decision: 'approve', sql, reason: null }, pending };
    }
    await this.review.decide(threadId, pending, { decision: 'denied', reason: request.reason ?? null });
    return { answer: { decision: 'deny', sql: null, reason: request.reason ?? null }, pending };
  }

  /**
   * A new message while a proposal waits: the proposal is refused (recorded as superseded) and the paused turn
   * is closed without asking the model, so the new message starts a clean turn.
   */
  async supersede(threadId: string): Promise<void> {
    const pending = await this.pending(threadId);
    if (!pending) return;
    try {
      await this.review.decide(threadId, pending, { decision: 'superseded', reason: 'a new message was sent instead' });
    } catch (error) {
      // Already decided (a confirm that did not finish): the paused turn is closed all the same.
      if (!isAppError(error) || error.code !== 'REVIEW_ALREADY_DECIDED') throw error;
    }
    const { proposal } = pending;
    const denial = new ToolMessage({
      tool_call_id: proposal.tool_call_id,
      name: pending.tool_name,
      content: 'The user sent a new message instead of running this query; it was not run.',
      artifact: { type: 'error', code: 'QUERY_DENIED', message: 'Not run: a new message was sent instead.', sql: proposal.sql },
      status: 'error',
    });
    // Calls of the same assistant message after the paused one never ran: each gets its answer too.
    const later = unansweredCalls([...(await this.agent.messages(threadId)), denial]).map(
      (call) => new ToolMessage({ tool_call_id: call.id ?? '', name: call.name, content: 'Not run: a new message was sent instead.', status: 'error' }),
    );
    await this.agent.update(threadId, { messages: [denial, ...later], pending_review: null });
  }
}
