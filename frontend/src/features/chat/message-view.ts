import type { ThreadMessage, ToolResultContent } from '@aigis/contracts';

export interface ToolCallView {
  id: string;
  name: string;
  args: Record<string, unknown>;
  /** The tool's structured result, once it arrived. */
  result: ToolResultContent | null;
}

/**
 * What the message list shows: tool messages are folded into the call that asked for them. `question` is the
 * question of the turn an answer belongs to (null after a `SQL:` message, which asks none).
 */
export type DisplayItem =
  | { kind: 'user'; message: ThreadMessage }
  | { kind: 'assistant'; message: ThreadMessage; calls: ToolCallView[]; question: string | null }
  | { kind: 'tool'; message: ThreadMessage; result: ToolResultContent; question: string | null };

export function toDisplayItems(messages: ThreadMessage[]): DisplayItem[] {
  const results = new Map<string, ThreadMessage>();
  for (const m of messages) if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, m);
  const callIds = new Set(messages.flatMap((m) => m.tool_calls?.map((c) => c.id) ?? []));

  const items: DisplayItem[] = [];
  let question: string | null = null;
  for (const message of messages) {
    if (message.role === 'user') {
      items.push({ kind: 'user', message });
      question = questionOf(message.content);
    } else if (message.role === 'assistant') {
      const calls = (message.tool_calls ?? []).map((c) => {
        const tool = results.get(c.id);
        return { id: c.id, name: c.name, args: c.args ?? {}, result: tool ? toolResultOf(tool) : null };
      });
      items.push({ kind: 'assistant', message, calls, question });
    } else if (!message.tool_call_id || !callIds.has(message.tool_call_id)) {
      // A result whose call is not in the list: show it on its own rather than lose it.
      items.push({ kind: 'tool', message, result: toolResultOf(message), question });
    }
  }
  return items;
}

/** The question a user message asks: its text, or null for a `SQL:` message (SQL typed by hand) or an empty one. */
export function questionOf(content: string): string | null {
  const text = content.trim();
  return !text || /^SQL:/i.test(text) ? null : text;
}

/** The structured result of a tool message: `result` when the API sent it, else the JSON in `content`. */
export function toolResultOf(message: ThreadMessage): ToolResultContent {
  if (isToolResult(message.result)) return message.result;
  try {
    const parsed: unknown = JSON.parse(message.content);
    if (isToolResult(parsed)) return parsed;
  } catch {
    // Plain text content (describe_table and similar).
  }
  return { type: 'text', text: message.content };
}

function isToolResult(value: unknown): value is ToolResultContent {
  const type = (value as { type?: unknown } | null)?.type;
  return (
    typeof value === 'object' &&
    value !== null &&
    (type === 'sql_result' || type === 'vega_lite_spec' || type === 'error' || type === 'text')
  );
}

/** The live label of a tool that is running. */
export function activityLabel(name: string, args: Record<string, unknown>): string {
  switch (name) {
    case 'ask_database':
      return 'Querying the database…';
    case 'ask_analyst':
      return 'Drawing a chart…';
    case 'describe_table':
      return typeof args.table === 'string' ? `Reading the table ${args.table}…` : 'Reading the schema…';
    case 'save_learning':
      return 'Saving what it learned…';
    default:
      return `Running ${name}…`;
  }
}
