import type { ApiErrorCode, ToolErrorCode } from './errors.js';

/**
 * The events of `POST /api/chat/:thread_id/message` and `…/confirm` (SPEC "Stream events").
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
  code: ToolErrorCode;
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
/** A table the query reads whole (a full scan), with the database's estimate of its rows (null: unknown). */
export interface TableScan {
  table: string;
  rows: number | null;
}

/** The database's own estimate of a query, made with EXPLAIN before it runs (nothing is executed). */
export interface QueryEstimate {
  /** Planner cost in the dialect's own units (PostgreSQL total cost, MySQL query_cost); null when the engine gives none. */
  cost: number | null;
  /** Estimated rows the query processes (the largest intermediate result / rows examined across a join). */
  rows: number | null;
  /** Full scans of base tables. */
  scans: TableScan[];
}

/**
 * A query waiting for the user's decision (the payload of the graph's `interrupt()`): approve it
 * (possibly edited) or refuse it with `POST /api/chat/:thread_id/confirm`.
 */
export interface ReviewProposal {
  /** Identifies this proposal; the confirm request may name it so a stale decision is refused. */
  id: string;
  /** The tool call this query answers (the `tool_call` event that preceded it). */
  tool_call_id: string;
  sql: string;
  dialect: 'postgres' | 'mysql' | 'sqlite';
  /** Null when the estimate could not be made (the reason says why). */
  estimate: QueryEstimate | null;
  /** Why the user is asked, in words (the thresholds that were crossed, or "this thread reviews every query"). */
  reason: string;
  /** The connection's review mode in effect, after the thread's override. */
  mode: 'always' | 'expensive';
  /** True for a `SQL:` message (no model was involved). */
  direct: boolean;
}

/** The turn paused before running a query: the user must approve, edit or refuse it. `end` follows. */
export interface ConfirmRequiredEvent {
  type: 'confirm_required';
  data: ReviewProposal;
}

/** What an answer cost: every model call of the turn (the assistant's and those inside tools) and their tokens. */
export interface TurnUsage {
  model_calls: number;
  /** Summed over the calls whose provider reported usage (0 when none did). */
  prompt_tokens: number;
  completion_tokens: number;
}

export interface EndEvent {
  type: 'end';
  /** `usage` is sent after a turn the agent answered (not after a `SQL:` message). */
  data: { full_response: string; usage?: TurnUsage };
}
export interface ErrorEvent {
  type: 'error';
  data: { error: string; code: ApiErrorCode };
}

export type StreamEvent = ChunkEvent | ToolCallEvent | ToolResultEvent | ConfirmRequiredEvent | EndEvent | ErrorEvent;
export type StreamEventType = StreamEvent['type'];
export const STREAM_EVENT_TYPES: readonly StreamEventType[] = ['chunk', 'tool_call', 'tool_result', 'confirm_required', 'end', 'error'];

/** Serialises one event in the SSE wire format (`event:` line, `data:` line, blank line). */
export function encodeSseEvent(event: StreamEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** The keep-alive comment sent every 15 s. */
export const SSE_PING = ': ping\n\n';
