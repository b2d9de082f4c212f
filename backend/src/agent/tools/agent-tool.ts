import { ToolMessage } from '@langchain/core/messages';
import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import type { ToolErrorCode, ToolResultContent } from '@aigis/contracts';
import type { z } from 'zod';
import { turnBudgetOf } from '../../limits/turn-budget.js';
import { INNER_CALL_TAGS } from '../events.js';
import type { AigisStateType, AigisStateUpdate, PendingReview } from '../state.js';

export interface ToolRunContext {
  state: AigisStateType;
  config: LangGraphRunnableConfig;
  threadId: string;
  /** The id of the tool call being answered. */
  toolCallId: string;
  signal?: AbortSignal;
}

export interface ToolOutcome {
  /** What the model reads (compact). */
  content: string;
  /** What the user sees (full, structured); kept as the ToolMessage artifact so a reload shows it again. */
  result: ToolResultContent;
  /** State changes, e.g. sql_result. */
  update?: Partial<AigisStateUpdate>;
  /** The query must be reviewed first: the turn pauses, and this call is answered once the user decides. */
  pause?: PendingReview;
}

export interface AgentTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  schema: S;
  run(args: z.infer<S>, context: ToolRunContext): Promise<ToolOutcome>;
}

export function toolError(code: ToolErrorCode, message: string, sql?: string): ToolOutcome {
  return { content: `Error (${code}): ${message}`, result: { type: 'error', code, message, ...(sql ? { sql } : {}) } };
}

/** A call's answer as stored in the thread: the model reads `content`, the user sees the artifact. */
export function toolMessage(callId: string, name: string, outcome: ToolOutcome): ToolMessage {
  return new ToolMessage({
    tool_call_id: callId,
    name,
    content: outcome.content,
    artifact: outcome.result,
    status: outcome.result.type === 'error' ? 'error' : 'success',
  });
}

/**
 * Calls a model inside a tool: same callbacks and abort signal, marked so its tokens are not shown as the answer.
 * Every inner model call is made with this config, so this is also where it is counted against the turn's
 * model calls (RATE_LIMITED, stopping the turn, once they are spent).
 */
export function innerCallConfig(context: ToolRunContext): LangGraphRunnableConfig {
  turnBudgetOf(context.config)?.modelCall();
  return { ...context.config, signal: context.signal, tags: [...(context.config.tags ?? []), ...INNER_CALL_TAGS] };
}

export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part === 'string' ? part : ((part as { text?: string }).text ?? ''))).join('');
  return '';
}
