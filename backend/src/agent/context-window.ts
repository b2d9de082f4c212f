import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';

/** Rough token count (≈ 4 characters per token): enough to keep a prompt inside a budget. */
export function estimateTokens(message: BaseMessage): number {
  const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  const calls = AIMessage.isInstance(message) && message.tool_calls?.length ? JSON.stringify(message.tool_calls) : '';
  return Math.ceil((content.length + calls.length) / 4) + 4;
}

const INTERRUPTED = 'This tool call did not complete: the answer was stopped before it finished.';

/**
 * The most recent messages that fit the budget, always including the latest user message, starting
 * at a user message, with every tool call answered and no tool result whose call was cut off.
 * The full history stays in the checkpoint; this is only what the model sees.
 */
export function selectContext(messages: BaseMessage[], budgetTokens: number): BaseMessage[] {
  const repaired = answerEveryToolCall(messages);
  let start = repaired.length;
  let used = 0;
  const lastHuman = repaired.findLastIndex((m) => HumanMessage.isInstance(m));
  for (let i = repaired.length - 1; i >= 0; i--) {
    const cost = estimateTokens(repaired[i]);
    if (used + cost > budgetTokens && i < lastHuman) break;
    used += cost;
    start = i;
  }
  let window = repaired.slice(start);
  const firstHuman = window.findIndex((m) => HumanMessage.isInstance(m));
  if (firstHuman > 0) window = window.slice(firstHuman);
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
