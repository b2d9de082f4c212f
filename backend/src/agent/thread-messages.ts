import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { SqlResultContent, ThreadMessage, VegaLiteSpecContent } from '@aigis/contracts';
import { sanitizeSpec } from './charts/spec-sanitizer.js';
import { INVALID_ARGUMENTS_KEY } from './nodes/assistant.node.js';
import { withChartRows } from './stored-results.js';
import { messageText } from './tools/agent-tool.js';

/** Checkpointed LangChain messages as the web app shows them (tool results carry their structured artifact). */
export function toThreadMessages(messages: BaseMessage[]): ThreadMessage[] {
  const out: ThreadMessage[] = [];
  // The newest table so far: a stored chart of it gets its rows back from it.
  let lastRows: Record<string, unknown>[] | null = null;
  for (const message of messages) {
    const id = message.id ?? '';
    if (HumanMessage.isInstance(message)) {
      out.push({ id, role: 'user', content: messageText(message.content) });
    } else if (AIMessage.isInstance(message)) {
      const calls = (message.tool_calls ?? []).map((c) => ({
        id: c.id ?? '',
        name: c.name,
        args: c.args?.[INVALID_ARGUMENTS_KEY] !== undefined ? {} : c.args,
      }));
      out.push({
        id,
        role: 'assistant',
        content: messageText(message.content),
        ...(calls.length ? { tool_calls: calls } : {}),
        ...(message.response_metadata?.stopped ? { stopped: true } : {}),
        ...(message.response_metadata?.unreadable ? { unreadable: true } : {}),
      });
    } else if (ToolMessage.isInstance(message)) {
      const artifact = cleanChart(withChartRows(message.artifact, lastRows));
      if ((artifact as { type?: string } | undefined)?.type === 'sql_result') lastRows = (artifact as SqlResultContent).rows;
      out.push({
        id,
        role: 'tool',
        content: messageText(message.content),
        tool_call_id: message.tool_call_id,
        tool_name: message.name,
        result: artifact ?? { type: 'text', text: messageText(message.content) },
      });
    }
  }
  return out;
}

/**
 * A chart is cleaned again on its way to the browser: one stored before the server cleaned specs (or by any
 * path that skipped it) must not reach vega-embed with a URL in it. The injected rows are kept.
 */
function cleanChart(artifact: unknown): unknown {
  if ((artifact as { type?: string } | undefined)?.type !== 'vega_lite_spec') return artifact;
  const chart = artifact as VegaLiteSpecContent;
  const cleaned = sanitizeSpec(chart.spec);
  if ('error' in cleaned) return { type: 'text', text: `This chart was not shown: ${cleaned.error}.` };
  const values = (chart.spec.data as { values?: unknown } | undefined)?.values;
  return { ...chart, spec: { ...cleaned.value, ...(Array.isArray(values) ? { data: { values } } : {}) } };
}
