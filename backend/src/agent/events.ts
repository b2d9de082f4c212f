/** Custom events the tools node dispatches; the chat stream turns them into `tool_call` / `tool_result`. */
export const TOOL_CALL_EVENT = 'aigis_tool_call';
export const TOOL_RESULT_EVENT = 'aigis_tool_result';
/** Tag on model calls made inside tools (SQL and chart writing): their tokens are not the answer. */
export const INNER_CALL_TAG = 'aigis:inner';
