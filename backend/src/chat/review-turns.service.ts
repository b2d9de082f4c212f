import { Injectable } from '@nestjs/common';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { ConfirmRequest, ReviewProposal } from '@aigis/contracts';
import { AgentService } from '../agent/agent.service.js';
import { DIRECT_SQL_FLAG, type ReviewAnswer } from '../agent/review/review-answer.js';
import { unansweredCalls } from '../agent/review/review-gate.node.js';
import { ReviewService } from '../agent/review/review.service.js';
import type { PendingReview } from '../agent/state.js';
import { AppError, isAppError } from '../common/app-error.js';
import type { ThreadsTable } from '../storage/schema.js';

/**
 * The chat side of review before run: what is pending on a thread, the user's decision turned into the value the
 * graph resumes with, a `SQL:` message paused like a tool call, and a pending proposal superseded by a new message.
 */
@Injectable()
export class ReviewTurnsService {
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
  async decide(row: ThreadsTable, request: ConfirmRequest): Promise<{ answer: ReviewAnswer; pending: PendingReview }> {
    const pending = await this.pending(row.id);
    if (!pending) throw new AppError('NO_PENDING_REVIEW', 'No query is waiting for your decision in this conversation.');
    if (request.proposal_id && request.proposal_id !== pending.proposal.id) {
      throw new AppError('REVIEW_STALE', 'This proposal is no longer the one waiting; reload the conversation.', { pending: pending.proposal.id });
    }
    if (request.decision === 'approve') {
      const sql = await this.review.decide(row.id, pending, { decision: 'approved', sql: request.sql ?? null });
      return { answer: { decision: 'approve', sql, reason: null }, pending };
    }
    await this.review.decide(row.id, pending, { decision: 'denied', reason: request.reason ?? null });
    return { answer: { decision: 'deny', sql: null, reason: request.reason ?? null }, pending };
  }

  /**
   * A new message while a proposal waits: the proposal is refused (recorded as superseded) and the paused turn
   * is closed without asking the model, so the new message starts a clean turn.
   */
  async supersede(row: ThreadsTable): Promise<void> {
    const pending = await this.pending(row.id);
    if (!pending) return;
    try {
      await this.review.decide(row.id, pending, { decision: 'superseded', reason: 'a new message was sent instead' });
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
    const later = unansweredCalls([...(await this.agent.messages(row.id)), denial]).map(
      (call) => new ToolMessage({ tool_call_id: call.id ?? '', name: call.name, content: 'Not run: a new message was sent instead.', status: 'error' }),
    );
    await this.agent.update(row.id, { messages: [denial, ...later], pending_review: null });
  }

  /** A `SQL:` message whose query must be reviewed: saved as a tool call of ours, then paused in the review node. */
  async pauseDirect(row: ThreadsTable, content: string, callId: string, sql: string, pending: PendingReview, signal: AbortSignal): Promise<void> {
    const config = this.agent.runConfig(row.id, signal);
    await this.agent.graph.updateState(
      config,
      {
        messages: [
          new HumanMessage(content),
          new AIMessage({ content: '', tool_calls: [{ id: callId, name: 'ask_database', args: { sql }, type: 'tool_call' }], additional_kwargs: { [DIRECT_SQL_FLAG]: true } }),
        ],
        pending_review: pending,
      },
      'tools',
    );
    // Runs the review node up to its interrupt(), so the pause is the graph's own (resumable with Command).
    for await (const _ of await this.agent.graph.stream(null, { ...config, streamMode: 'updates' })) {
      // nothing to relay: the caller sends confirm_required
    }
  }
}
