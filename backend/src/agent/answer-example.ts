import { AIMessage, type BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { SqlResultContent } from '@aigis/contracts';

/** The SQL of one answer of a thread and the question it answered ("Save as example"). */
export interface AnswerExample {
  sql: string;
  /** ask_database's question; null for a `SQL:` message (which has none of its own). */
  question: string | null;
}

/**
 * Finds the query result named by `messageId` (the tool message's id, or its tool call's id) in a thread's
 * messages. Only a successful sql_result counts: an error, a chart or text has no SQL that ran.
 */
export function findAnswerExample(messages: BaseMessage[], messageId: string): AnswerExample | null {
  const tool = messages.find((m): m is ToolMessage => ToolMessage.isInstance(m) && (m.id === messageId || m.tool_call_id === messageId));
  const result = tool?.artifact as SqlResultContent | undefined;
  if (!tool || result?.type !== 'sql_result' || typeof result.sql !== 'string') return null;
  const call = messages
    .filter((m): m is AIMessage => AIMessage.isInstance(m))
    .flatMap((m) => m.tool_calls ?? [])
    .find((c) => c.id === tool.tool_call_id);
  const asked = typeof call?.args?.question === 'string' ? call.args.question.trim() : '';
  const written = typeof call?.args?.sql === 'string' ? call.args.sql : null;
  return { sql: written ?? result.sql, question: asked || null };
}
