import { AIMessage, type BaseMessage, HumanMessage, ToolMessage, trimMessages } from '@langchain/core/messages';
import { countTokens } from './token-count.js';

const INTERRUPTED = 'This tool call did not complete: the answer was stopped before it finished.';

/** Room kept for the model's answer (and the tool definitions): a quarter of a small window, 4 k tokens of a large one. */
export function answerReserve(contextWindow: number): number {
  return Math.min(4096, Math.floor(contextWindow / 4));
}

/**
 * Tokens of history a model may be sent: what its context window leaves after the system prompt and the answer's
 * reserve, and never more than CONTEXT_BUDGET_TOKENS (the operator's cap on what one call costs).
 */
export function historyBudget(options: { contextWindow: number; systemTokens: number; cap: number }): number {
  return Math.max(0, Math.min(options.cap, options.contextWindow - options.systemTokens - answerReserve(options.contextWindow)));
}

/**
 * The most recent messages that fit the budget (LangChain's trimMessages, counted with a real tokenizer), always
 * including the latest user message, starting at a user message, with every tool call answered and no tool
 * result whose call was cut off. The full history stays in the checkpoint; this is only what the model sees.
 */
export async function selectContext(messages: BaseMessage[], budgetTokens: number): Promise<BaseMessage[]> {
  const repaired = answerEveryToolCall(messages);
  const lastHuman = repaired.findLastIndex((m) => HumanMessage.isInstance(m));
  let window = await trimMessages(repaired, { maxTokens: budgetTokens, tokenCounter: countTokens, strategy: 'last', startOn: 'human' });
  // The latest question (and this turn's calls after it) is sent even over budget: a suffix shorter than it lost it.
  if (lastHuman >= 0 && window.length < repaired.length - lastHuman) window = repaired.slice(lastHuman);
  const calledIds = new Set(window.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.id) : [])));
  return window.filter((m) => !ToolMessage.isInstance(m) || calledIds.has(m.tool_call_id));
}

/** A stopped answer can leave tool calls without results; providers refuse such a history. */
export function answerEveryToolCall(messages: BaseMessage[]): BaseMessage[] {
  const answered = new Set(messages.filter((m) => ToolMessage.isInstance(m)).map((m) => (m as ToolMessage).tool_call_id));
  const out: BaseMessage[] = [];
  for (const message of messages) {
    out.push(message);
    if (!AIMessage.isInstance(message)) continue;
    for (const call of message.tool_calls ?? []) {
      if (call.id && !answered.has(call.id)) {
        out.push(new ToolMessage({ tool_call_id: call.id, name: call.name, content: INTERRUPTED, status: 'error' }));
      }
    }
  }
  return out;
}
