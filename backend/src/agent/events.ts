import type { ToolCallEvent, ToolResultEvent } from '@aigis/contracts';

/** What the tools node writes to LangGraph's `custom` stream; the chat stream relays it as is. */
export type ToolStreamEvent = ToolCallEvent | ToolResultEvent;

/**
 * Tags on model calls made inside tools (SQL and chart writing): their tokens are not the answer.
 * `nostream` makes LangGraph's messages stream skip them entirely, so they cost nothing per token.
 */
export const INNER_CALL_TAGS = ['aigis:inner', 'nostream'];
