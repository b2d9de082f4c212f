import { END, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { AIMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { turnBudgetOf } from '../limits/turn-budget.js';
import { assistantNode, type AssistantDeps } from './nodes/assistant.node.js';
import { type DirectSql, toolsNode } from './nodes/tools.node.js';
import { reviewGateNode, routeAfterReview } from './review/review-gate.node.js';
import type { ReadOnlyExecutor } from '../query/read-only-executor.js';
import { isDirectSqlTurn } from './tool-calls.js';
import { type AigisStateType, createAigisState } from './state.js';

/**
 * START → assistant → (tool calls?) tools → assistant … → END (a `SQL:` message starts at tools); a query to review goes tools → review (which
 * pauses with interrupt()) → the remaining calls, the assistant, or END for a `SQL:` message. Wiring only.
 */
export function buildAgentGraph(
  deps: AssistantDeps & { executor: Pick<ReadOnlyExecutor, 'run'>; direct: DirectSql },
  checkpointer: BaseCheckpointSaver,
  options: { turnStoreMaxBytes?: number } = {},
) {
  return new StateGraph(createAigisState(options.turnStoreMaxBytes))
    .addNode('assistant', assistantNode(deps))
    .addNode('tools', toolsNode(deps.tools, deps.direct))
    .addNode('review', reviewGateNode({ executor: deps.executor }))
    .addEdge(START, 'assistant')
    .addConditionalEdges('assistant', routeAfterAssistant, ['tools', END])
    .addConditionalEdges('tools', routeAfterTools, ['review', 'assistant', END])
    .addConditionalEdges('review', routeAfterReviewNode, ['review', 'tools', 'assistant', END])
    .compile({ checkpointer });
}

export function routeAfterAssistant(state: AigisStateType): 'tools' | typeof END {
  const last = state.messages.at(-1);
  return last && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
}

/**
 * To the review node when a query waits for the user; a `SQL:` message's turn ends; else back to the assistant,
 * unless the turn has spent its tool or model calls (the stream then reports why).
 */
export function routeAfterTools(state: AigisStateType, config?: LangGraphRunnableConfig): 'review' | 'assistant' | typeof END {
  if (state.pending_review) return 'review';
  if (isDirectSqlTurn(state.messages)) return END;
  const budget = turnBudgetOf(config);
  if (!budget) return 'assistant';
  return budget.stopped || !budget.mayCallModel() ? END : 'assistant';
}

/** After a decision: the remaining calls, END for a `SQL:` message, else the assistant within the turn's budget. */
export function routeAfterReviewNode(state: AigisStateType, config?: LangGraphRunnableConfig): 'review' | 'tools' | 'assistant' | typeof END {
  const next = routeAfterReview(state);
  return next === 'assistant' ? routeAfterTools(state, config) : next;
}

export type AgentGraph = ReturnType<typeof buildAgentGraph>;
