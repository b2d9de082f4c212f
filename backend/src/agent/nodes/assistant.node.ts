import { AIMessage, type AIMessageChunk, SystemMessage } from '@langchain/core/messages';
import type { ToolCall } from '@langchain/core/messages/tool';
import { tool as defineTool } from '@langchain/core/tools';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { Dialect, SchemaResponse } from '@aigis/contracts';
import { AppError } from '../../common/app-error.js';
import { turnBudgetOf } from '../../limits/turn-budget.js';
import { historyBudget, selectContext } from '../context-window.js';
import type { ModelResolver } from '../model-resolver.js';
import { assistantPrompt } from '../prompts.js';
import { type AigisStateType, type AigisStateUpdate, storedMarkdownMode } from '../state.js';
import { countTextTokens } from '../token-count.js';
import { type AgentTool, messageText } from '../tools/agent-tool.js';

export const INVALID_ARGUMENTS_KEY = '__invalid_arguments';

export interface AssistantDeps {
  models: ModelResolver;
  tools: AgentTool[];
  /** The most history tokens any call is sent (CONTEXT_BUDGET_TOKENS); each model's context window may allow fewer. */
  contextBudgetTokens: number;
  /** The dialect of the thread's connection, for the prompt (null when none). */
  dialectOf(state: AigisStateType): Promise<Dialect | null>;
  /**
   * The connection's schema as the prompt gives it for this question (its policy applied now; a large schema
   * narrowed to the relevant tables); null falls back to the schema stored when the connection was chosen.
   */
  schemaFor(state: AigisStateType, question: string, signal?: AbortSignal): Promise<Pick<SchemaResponse, 'markdown' | 'markdown_mode'> | null>;
  /** The connection owner's notes (knowledge) as one delimited block; null when none or no connection. */
  knowledgeFor(state: AigisStateType): Promise<string | null>;
  noModelMessage(): string;
}

/** Calls the thread's model (resolved now, from state.model_name) with the tools bound. */
export function assistantNode(deps: AssistantDeps) {
  const definitions = deps.tools.map((t) => defineTool(async () => '', { name: t.name, description: t.description, schema: t.schema }));
  return async (state: AigisStateType, config: LangGraphRunnableConfig): Promise<AigisStateUpdate> => {
    if (!state.model_name) throw new AppError('NO_MODEL', deps.noModelMessage());
    const model = deps.models.chatModel(state.model_name, { signal: config.signal });
    const toolsAvailable = deps.models.supportsTools(state.model_name);
    const schema = await deps.schemaFor(state, lastQuestion(state), config.signal);
    const markdownMode = schema ? schema.markdown_mode : storedMarkdownMode(state);
    // describe_table is offered whenever the prompt carries less than the full schema.
    const abbreviated = markdownMode !== null && markdownMode !== 'full';
    const tools = abbreviated ? definitions : definitions.filter((d) => d.name !== 'describe_table');
    const prompt = assistantPrompt({
      dbSchema: schema?.markdown ?? state.db_schema,
      markdownMode,
      dialect: await deps.dialectOf(state),
      sqlResult: state.sql_result,
      toolsAvailable,
      knowledge: await deps.knowledgeFor(state),
    });
    const budget = historyBudget({ contextWindow: deps.models.contextWindow(state.model_name), systemTokens: countTextTokens(prompt), cap: deps.contextBudgetTokens });
    const history = await selectContext(state.messages, budget);
    const system = new SystemMessage(prompt);
    const runnable = toolsAvailable && model.bindTools ? model.bindTools(tools) : model;
    turnBudgetOf(config)?.modelCall();
    const response = (await runnable.invoke([system, ...history], config)) as AIMessageChunk;
    return { messages: [normalise(response)] };
  };
}

/** The user's latest message: what the schema is narrowed to. */
function lastQuestion(state: AigisStateType): string {
  const human = [...state.messages].reverse().find((m) => m.getType() === 'human');
  return human ? messageText(human.content) : '';
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
