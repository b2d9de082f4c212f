import { AIMessage, type AIMessageChunk, SystemMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { tool as defineTool } from '@langchain/core/tools';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { Dialect } from '@aigis/contracts';
import { AppError } from '../../common/app-error.js';
import { turnBudgetOf } from '../../limits/turn-budget.js';
import { selectContext } from '../context-window.js';
import type { ModelResolver } from '../model-resolver.js';
import { assistantPrompt } from '../prompts.js';
import type { AigisStateType, AigisStateUpdate } from '../state.js';
import type { AgentTool } from '../tools/agent-tool.js';

export const INVALID_ARGUMENTS_KEY = '__invalid_arguments';

export interface AssistantDeps {
  models: ModelResolver;
  tools: AgentTool[];
  contextBudgetTokens: number;
  /** The dialect of the thread's connection, for the prompt (null when none). */
  dialectOf(state: AigisStateType): Promise<Dialect | null>;
  noModelMessage(): string;
}

/** Calls the thread's model (resolved now, from state.model_name) with the tools bound. */
export function assistantNode(deps: AssistantDeps) {
  const definitions = deps.tools.map((t) => defineTool(async () => '', { name: t.name, description: t.description, schema: t.schema }));
  return async (state: AigisStateType, config: LangGraphRunnableConfig): Promise<AigisStateUpdate> => {
    if (!state.model_name) throw new AppError('NO_MODEL', deps.noModelMessage());
    const model = deps.models.chatModel(state.model_name, { signal: config.signal });
    const toolsAvailable = deps.models.supportsTools(state.model_name);
    // describe_table is offered whenever the prompt carries less than the full schema.
    const abbreviated = state.schema_mode !== null && state.schema_mode !== 'full';
    const tools = abbreviated ? definitions : definitions.filter((d) => d.name !== 'describe_table');
    const system = new SystemMessage(
      assistantPrompt({
        dbSchema: state.db_schema,
        schemaMode: state.schema_mode,
        dialect: await deps.dialectOf(state),
        sqlResult: state.sql_result,
        toolsAvailable,
      }),
    );
    const history = selectContext(state.messages, deps.contextBudgetTokens);
    const runnable = toolsAvailable && model.bindTools ? model.bindTools(tools) : model;
    turnBudgetOf(config)?.modelCall();
    const response = (await runnable.invoke([system, ...history], config)) as AIMessageChunk;
    return { messages: [normalise(response)] };
  };
}

/**
 * A stored assistant message with its tool calls in one form: calls whose arguments did not parse
 * become calls carrying the raw text, so the tools node can answer each one with a correction
 * (providers drop unparsable calls when the history is sent back, which would orphan the answer).
 */
export function normalise(response: AIMessageChunk | AIMessage): AIMessage {
  const valid: ToolCall[] = (response.tool_calls ?? []).map((c) => ({ ...c, id: c.id ?? cryptoId() }));
  const invalid: ToolCall[] = (response.invalid_tool_calls ?? []).map((c) => ({
    id: c.id ?? cryptoId(),
    name: c.name ?? 'unknown',
    args: { [INVALID_ARGUMENTS_KEY]: c.args ?? '', error: c.error ?? 'not valid JSON' },
    type: 'tool_call',
  }));
  return new AIMessage({
    id: response.id,
    content: response.content,
    tool_calls: [...valid, ...invalid],
    response_metadata: response.response_metadata,
    usage_metadata: response.usage_metadata,
  });
}

function cryptoId(): string {
  return `call_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;
}
