import { END, START, StateGraph, type BaseCheckpointSaver } from '@langchain/langgraph';
import { AIMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { turnBudgetOf } from '../limits/turn-budget.js';
import { assistantNode, type AssistantDeps } from './nodes/assistant.node.js';
import { toolsNode } from './nodes/tools.node.js';
import { type AigisStateType, createAigisState } from './state.js';

/** START → assistant → (tool calls?) tools → assistant … → END. Wiring only. */
export function buildAgentGraph(deps: AssistantDeps, checkpointer: BaseCheckpointSaver, options: { turnStoreMaxBytes?: number } = {}) {
  return new StateGraph(createAigisState(options.turnStoreMaxBytes))
    .addNode('assistant', assistantNode(deps))
    .addNode('tools', toolsNode(deps.tools))
    .addEdge(START, 'assistant')
    .addConditionalEdges('assistant', routeAfterAssistant, ['tools', END])
    .addConditionalEdges('tools', routeAfterTools, ['assistant', END])
    .compile({ checkpointer });
}

export function routeAfterAssistant(state: AigisStateType): 'tools' | typeof END {
  const last = state.messages.at(-1);
  return last && AIMessage.isInstance(last) && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
}

/** Back to the assistant, unless the turn has spent its tool or model calls (the stream then reports why). */
export function routeAfterTools(_state: AigisStateType, config?: LangGraphRunnableConfig): 'assistant' | typeof END {
  const budget = turnBudgetOf(config);
  if (!budget) return 'assistant';
  return budget.stopped || !budget.mayCallModel() ? END : 'assistant';
}

export type AgentGraph = ReturnType<typeof buildAgentGraph>;
