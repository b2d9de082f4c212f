import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';

/** Marks an AIMessage we wrote for a `SQL:` message (model messages never carry additional_kwargs: see normalise()). */
export const DIRECT_SQL_FLAG = 'aigis_direct_sql';

/** A `SQL:` message as the turn's start: the user's text and our own ask_database call carrying the statement. */
export function directSqlTurn(content: string, sql: string, callId: string): BaseMessage[] {
  return [
    new HumanMessage(content),
    new AIMessage({ content: '', tool_calls: [{ id: callId, name: 'ask_database', args: { sql }, type: 'tool_call' }], additional_kwargs: { [DIRECT_SQL_FLAG]: true } }),
  ];
}

export function lastToolCallingMessage(messages: BaseMessage[]): { message: AIMessage; index: number } | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (AIMessage.isInstance(m)) return (m.tool_calls?.length ?? 0) > 0 ? { message: m, index: i } : null;
  }
  return null;
}

/** Whether the calls being answered are a `SQL:` message's (run as written, and the turn ends after them). */
export function isDirectSqlTurn(messages: BaseMessage[]): boolean {
  return lastToolCallingMessage(messages)?.message.additional_kwargs?.[DIRECT_SQL_FLAG] === true;
}

/** The tool calls of the last assistant message that have no answer yet (all of them before the tools run). */
export function unansweredCalls(messages: BaseMessage[]) {
  const last = lastToolCallingMessage(messages);
  if (!last) return [];
  const answered = new Set(messages.slice(last.index + 1).filter((m) => ToolMessage.isInstance(m)).map((m) => (m as ToolMessage).tool_call_id));
  return (last.message.tool_calls ?? []).filter((c) => !answered.has(c.id ?? ''));
}
