import type { ToolCallEvent, ToolResultEvent } from '@aigis/contracts';

/** What the tools node writes to LangGraph's `custom` stream; the chat stream relays it as is. */
export type ToolStreamEvent = ToolCallEvent | ToolResultEvent;

/**
 * Tags on model calls made inside tools (SQL and chart writing): their tokens are not the answer.
 * The chat stream's AnswerRelay skips calls with these tags (and any call outside the assistant
 * node); `nostream` does the same for LangGraph's own messages stream mode.
 */
export const INNER_CALL_TAGS = ['aigis:inner', 'nostream'];
