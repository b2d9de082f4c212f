import { END, interrupt, type LangGraphRunnableConfig } from '@langchain/langgraph';
import type { ReviewProposal } from '@aigis/contracts';
import { isAppError } from '../../common/app-error.js';
import type { ReadOnlyExecutor } from '../../query/read-only-executor.js';
import type { ToolStreamEvent } from '../events.js';
import type { AigisStateType, AigisStateUpdate } from '../state.js';
import { toolError, toolMessage, type ToolOutcome } from '../tools/agent-tool.js';
import { success } from '../tools/ask-database.tool.js';
import { isDirectSqlTurn, lastToolCallingMessage, unansweredCalls } from '../tool-calls.js';
import type { ReviewAnswer } from './review-answer.js';

/**
 * The confirmation gate: pauses the graph with the pending proposal (LangGraph `interrupt()`, checkpointed, so
 * it survives a restart) and, resumed with the user's answer, runs the approved SQL or tells the model it was
 * refused. The pause sits in its own node because a resumed node runs again from its start: here that start is
 * only the interrupt, not the model call that wrote the SQL.
 */
export function reviewGateNode(deps: { executor: Pick<ReadOnlyExecutor, 'run'> }) {
  return async (state: AigisStateType, config: LangGraphRunnableConfig): Promise<AigisStateUpdate> => {
    const pending = state.pending_review;
    if (!pending) return {};
    const answer = interrupt<ReviewProposal, ReviewAnswer>(pending.proposal);
    const { proposal } = pending;
    let outcome: ToolOutcome;
    if (answer.decision === 'approve') {
      const sql = answer.sql ?? proposal.sql;
      try {
        const result = await deps.executor.run({
          userId: pending.user_id,
          connectionId: pending.connection_id,
          sql,
          threadId: String(config.configurable?.thread_id ?? ''),
          modelName: proposal.direct ? null : state.model_name,
          reviewId: proposal.id,
          signal: config.signal,
        });
        outcome = success(sql, result);
      } catch (error) {
        if (config.signal?.aborted || !isAppError(error)) throw error;
        outcome = toolError(error.code, error.message, sql);
      }
    } else {
      const why = answer.reason ? ` Their reason: "${answer.reason}".` : '';
      outcome = {
        content: `The user chose not to run this query.${why} Do not run it again unchanged: explain, or propose a different query.`,
        result: { type: 'error', code: 'QUERY_DENIED', message: `You chose not to run this query${answer.reason ? `: ${answer.reason}` : '.'}`, sql: proposal.sql },
      };
    }
    const event: ToolStreamEvent = { type: 'tool_result', data: { id: proposal.tool_call_id, name: pending.tool_name, content: outcome.result } };
    config.writer?.(event);
    const message = toolMessage(proposal.tool_call_id, pending.tool_name, outcome);
    return { ...(outcome.update ?? {}), messages: [message], pending_review: null };
  };
}

/** After the gate: the rest of the paused message's tool calls, then the model; a `SQL:` message ends its turn. */
export function routeAfterReview(state: AigisStateType): 'review' | 'tools' | 'assistant' | typeof END {
  if (state.pending_review) return 'review';
  if (!lastToolCallingMessage(state.messages)) return 'assistant';
  if (unansweredCalls(state.messages).length > 0) return 'tools';
  return isDirectSqlTurn(state.messages) ? END : 'assistant';
}
