/**
 * The events of `POST /api/chat/:thread_id/message` (SPEC "Stream events").
 * Defined once here; the API writes them and the web app reads them.
 */

/** Result of `ask_database` (and of a `SQL:` message) as it travels in a `tool_result`. */
export interface SqlResultContent {
  type: 'sql_result';
  sql: string;
  columns: string[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
  /** Set when `truncated` (see QueryResponse). */
  truncated_reason?: 'row_limit' | 'result_bytes' | 'turn_store_bytes';
  elapsed_ms: number;
}

/** Result of `ask_analyst`: a Vega-Lite spec with `data.values` injected by the server. */
export interface VegaLiteSpecContent {
  type: 'vega_lite_spec';
  spec: Record<string, unknown>;
  /** True when the model's specs did not compile and the server chose a chart from the column types. */
  fallback?: boolean;
  /** The chart was stored with fewer data values than it was drawn with (the turn's storage budget). */
  truncated_reason?: 'turn_store_bytes';
}

/** A tool that failed in a way the user should see (SQL rejected, query failed after retries, …). */
export interface ToolErrorContent {
  type: 'error';
  code: string;
  message: string;
  sql?: string;
}

/** Other tools (describe_table) answer with text. */
export interface TextContent {
  type: 'text';
  text: string;
}

export type ToolResultContent = SqlResultContent | VegaLiteSpecContent | ToolErrorContent | TextContent;

export interface ChunkEvent {
  type: 'chunk';
  data: { content: string };
}
export interface ToolCallEvent {
  type: 'tool_call';
  data: { id: string; name: string; args: Record<string, unknown> };
}
export interface ToolResultEvent {
  type: 'tool_result';
  data: { id: string; name: string; content: ToolResultContent };
}
export interface EndEvent {
  type: 'end';
  data: { full_response: string };
}
export interface ErrorEvent {
  type: 'error';
  data: { error: string; code: string };
}

export type StreamEvent = ChunkEvent | ToolCallEvent | ToolResultEvent | EndEvent | ErrorEvent;
export type StreamEventType = StreamEvent['type'];
export const STREAM_EVENT_TYPES: readonly StreamEventType[] = ['chunk', 'tool_call', 'tool_result', 'end', 'error'];

/** Serialises one event in the SSE wire format (`event:` line, `data:` line, blank line). */
export function encodeSseEvent(event: StreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** The keep-alive comment sent every 15 s. */
export const SSE_PING = ': ping\n\n';
