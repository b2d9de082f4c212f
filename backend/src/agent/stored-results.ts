import { type BaseMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { Messages } from '@langchain/langgraph';
import type { SqlResultContent, ToolResultContent, VegaLiteSpecContent } from '@aigis/contracts';
import { utf8Bytes } from '../connections/dialects/result-budget.js';

/**
 * The last successful query of the thread, for ask_analyst. Its rows are stored once, in the tool message that
 * returned them (withoutRows, lastResultRows): `rows` is only present in memory during the step that ran the query.
 */
export interface SqlResultState {
  sql: string;
  columns: string[];
  rows?: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
}

/** The default of TURN_STORE_MAX_BYTES. */
export const DEFAULT_TURN_STORE_MAX_BYTES = 8 * 1024 * 1024;

// Artifacts are measured once per process: a turn's messages pass the reducer several times.
const measured = new WeakMap<object, number>();

function artifactBytes(artifact: object): number {
  let bytes = measured.get(artifact);
  if (bytes === undefined) {
    bytes = utf8Bytes(JSON.stringify(artifact));
    measured.set(artifact, bytes);
  }
  return bytes;
}

/**
 * What a turn may store: the tool results (tables and charts) of one turn — the messages since its user message —
 * together stay within `maxBytes`. A result that does not fit is stored with the rows that do, marked
 * `truncated_reason: "turn_store_bytes"`; the answer as it streamed is not affected. A chart of the table before it
 * is stored without its rows (they are the table's). Applied in the messages reducer, so the agent's tools and
 * `SQL:` messages are bounded alike.
 */
export function boundTurnStore(left: BaseMessage[], right: Messages, maxBytes: number): Messages {
  const incoming = Array.isArray(right) ? right : [right];
  let used = 0;
  for (let i = left.length - 1; i >= 0 && !HumanMessage.isInstance(left[i]); i--) {
    const message = left[i];
    if (ToolMessage.isInstance(message) && isObject(message.artifact)) used += artifactBytes(message.artifact);
  }
  let lastRows = lastTableRows(left);
  let changed = false;
  const bounded = incoming.map((message) => {
    if (HumanMessage.isInstance(message)) used = 0;
    if (!ToolMessage.isInstance(message) || !isObject(message.artifact)) return message;
    let artifact = message.artifact as ToolResultContent;
    if (artifact.type === 'vega_lite_spec' && lastRows && chartsRows(artifact, lastRows)) artifact = withoutChartRows(artifact);
    const size = artifactBytes(artifact);
    if (used + size > maxBytes) artifact = cutArtifact(artifact, maxBytes - used);
    used += artifactBytes(artifact);
    if (artifact.type === 'sql_result') lastRows = artifact.rows;
    if (artifact === message.artifact) return message;
    changed = true;
    return new ToolMessage({
      id: message.id,
      tool_call_id: message.tool_call_id,
      name: message.name,
      content: message.content,
      status: message.status,
      artifact,
    });
  });
  return (changed || Array.isArray(right) ? bounded : bounded[0]) as Messages;
}

/** Set on a stored chart whose data are the rows of the table before it: they are stored once, with the table. */
const ROWS_OF_LAST_TABLE = 'values_from_last_table';

/** A chart as stored again as it was drawn: the rows of the newest table before it put back (thread-messages.ts). */
export function withChartRows(artifact: unknown, lastRows: Record<string, unknown>[] | null): unknown {
  if (!isObject(artifact) || !(ROWS_OF_LAST_TABLE in artifact)) return artifact;
  const { [ROWS_OF_LAST_TABLE]: _flag, ...chart } = artifact as unknown as VegaLiteSpecContent & Record<string, unknown>;
  return { ...chart, spec: { ...chart.spec, data: { values: lastRows ?? [] } } };
}

function withoutChartRows(artifact: VegaLiteSpecContent): VegaLiteSpecContent {
  return { ...artifact, spec: { ...artifact.spec, data: { values: [] } }, [ROWS_OF_LAST_TABLE]: true } as VegaLiteSpecContent;
}

/** Whether the chart draws exactly these rows (the same array during a run; equal JSON after a reload). */
function chartsRows(chart: VegaLiteSpecContent, rows: Record<string, unknown>[]): boolean {
  const values = (chart.spec.data as { values?: unknown } | undefined)?.values;
  if (values === rows) return true;
  return Array.isArray(values) && values.length === rows.length && JSON.stringify(values) === JSON.stringify(rows);
}

function lastTableRows(messages: BaseMessage[]): Record<string, unknown>[] | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (ToolMessage.isInstance(message) && isObject(message.artifact) && (message.artifact as ToolResultContent).type === 'sql_result') {
      return (message.artifact as SqlResultContent).rows;
    }
  }
  return null;
}

/** The artifact with as many leading rows (chart values) as fit in `room` bytes. */
function cutArtifact(artifact: ToolResultContent, room: number): ToolResultContent {
  if (artifact.type === 'sql_result') {
    const rows = rowsWithin(artifact.rows, room - artifactBytes({ ...artifact, rows: [] }));
    return { ...artifact, rows, row_count: rows.length, truncated: true, truncated_reason: 'turn_store_bytes' } satisfies SqlResultContent;
  }
  if (artifact.type === 'vega_lite_spec') {
    const data = (artifact.spec.data ?? {}) as { values?: unknown[] };
    const empty = { ...artifact, spec: { ...artifact.spec, data: { ...data, values: [] } } };
    const values = rowsWithin(data.values ?? [], room - artifactBytes(empty));
    return { ...empty, spec: { ...artifact.spec, data: { ...data, values } }, truncated_reason: 'turn_store_bytes' } satisfies VegaLiteSpecContent;
  }
  const text = JSON.stringify(artifact);
  return { type: 'text', text: `${text.slice(0, Math.max(0, room - 200))}… (not stored in full: this turn's storage budget was spent)` };
}

function rowsWithin<T>(rows: T[], room: number): T[] {
  let used = 2;
  let n = 0;
  for (; n < rows.length; n++) {
    used += utf8Bytes(JSON.stringify(rows[n])) + 1;
    if (used > room) break;
  }
  return rows.slice(0, n);
}

/** sql_result as stored: the rows live once, in the tool message that returned them. */
export function withoutRows(result: SqlResultState | null): SqlResultState | null {
  if (!result || result.rows === undefined) return result;
  const { rows: _rows, ...rest } = result;
  return rest;
}

/**
 * The rows of the last query: in memory during the step that ran it, else those stored with the newest
 * tool message that returned a table (sql_result always names the last successful query).
 */
export function lastResultRows(messages: BaseMessage[], result: SqlResultState): Record<string, unknown>[] {
  return result.rows ?? lastTableRows(messages) ?? [];
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
