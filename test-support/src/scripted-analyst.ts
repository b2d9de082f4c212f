import { reply, type FakeRequest, type FakeResponse } from './fake-openai.js';

/**
 * A scripted "model" that behaves like a competent analyst, decided from what each request asks:
 * the assistant calls ask_database, then ask_analyst, then answers from the rows it was shown;
 * the SQL writer answers from `sqlFor`; the chart writer answers with a spec for the columns.
 * Tests override single steps to inject faults.
 */
export interface AnalystScript {
  /** The SQL for a question, per dialect ('PostgreSQL' | 'MySQL/MariaDB' | 'SQLite'). */
  sqlFor(question: string, dialect: string, attempt: number, request: FakeRequest): string;
  chartSpec?: (request: FakeRequest) => string;
  /** Whether the assistant should ask for a chart after the data. */
  wantsChart?: (question: string) => boolean;
  tokensPerSecond?: number;
}

export const SQL_WRITER_MARK = 'You write exactly one read-only';
export const CHART_WRITER_MARK = 'Vega-Lite v6 JSON specification';

export function dialectOf(request: FakeRequest): string {
  return /read-only (PostgreSQL|MySQL\/MariaDB|SQLite) SQL/.exec(request.system)?.[1] ?? 'unknown';
}

export function firstUserQuestion(request: FakeRequest): string {
  return request.messages.find((m) => m.role === 'user')?.content ?? '';
}

/** The first data row of the last ask_database result the assistant was shown (from the markdown table). */
export function firstResultRow(request: FakeRequest): string[] | null {
  const tool = [...request.messages].reverse().find((m) => m.role === 'tool' && m.content.startsWith('Ran:'));
  if (!tool) return null;
  const lines = tool.content.split('\n');
  const separator = lines.findIndex((l) => /^\|(---\|)+$/.test(l) || /^\|---/.test(l));
  if (separator === -1 || !lines[separator + 1]) return null;
  return lines[separator + 1].split('|').slice(1, -1).map((c) => c.trim());
}

export function analystResponder(script: AnalystScript) {
  return (request: FakeRequest): FakeResponse | undefined => {
    const pace = { tokensPerSecond: script.tokensPerSecond ?? 0 };
    if (request.system.includes(SQL_WRITER_MARK)) {
      const attempt = request.messages.filter((m) => m.role === 'assistant').length;
      return reply.text(['```sql\n', script.sqlFor(firstUserQuestion(request), dialectOf(request), attempt, request), '\n```']);
    }
    if (request.system.includes(CHART_WRITER_MARK)) {
      return reply.text(script.chartSpec?.(request) ?? '```json\n{"mark":"bar","title":"Result","encoding":{"x":{"field":"artist","type":"nominal","sort":"-y"},"y":{"field":"tracks","type":"quantitative"}}}\n```');
    }
    if (request.tools.length === 0) return undefined;
    const last = request.lastMessage;
    const question = [...request.messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    if (last?.role === 'user') return reply.toolCalls({ name: 'ask_database', args: { question } }, pace);
    if (last?.role === 'tool') {
      const previousCall = [...request.messages].reverse().find((m) => m.role === 'assistant' && m.tool_calls?.length)?.tool_calls?.[0]?.function.name;
      if (previousCall === 'ask_database' && last.content.startsWith('Ran:') && (script.wantsChart?.(question) ?? false)) {
        return reply.toolCalls({ name: 'ask_analyst', args: { request: 'bar chart of the result' } }, pace);
      }
      const row = firstResultRow(request);
      return reply.text(row ? `The top result is ${row[0]} with ${row[1]}.` : `I could not get data: ${last.content.slice(0, 120)}`, pace);
    }
    return reply.text('Hello! Ask me about your data.', pace);
  };
}
