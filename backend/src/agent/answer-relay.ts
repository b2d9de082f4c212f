import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { LLMResult } from '@langchain/core/outputs';
import { messageText } from './tools/agent-tool.js';
import { INNER_CALL_TAGS } from './events.js';

const ASSISTANT_NODE = 'assistant';

/**
 * Hands the text of the assistant's model calls to `onText` as it streams, from the model's own
 * callback, so a token costs one function call between the upstream and the client. Calls made
 * inside tools (SQL and chart writing) are skipped; a provider that answers in one piece (no token
 * stream) is relayed whole when its call ends.
 */
export class AnswerRelay extends BaseCallbackHandler {
  name = 'AigisAnswerRelay';
  /** Makes chat models stream their answer when invoked (what LangGraph's own messages handler does). */
  lc_prefer_streaming = true;
  /** The assistant's calls in flight, and whether each has streamed any token yet. */
  private readonly runs = new Map<string, { streamed: boolean }>();

  constructor(private readonly onText: (text: string) => void) {
    super();
  }

  override handleChatModelStart(_llm: unknown, _messages: unknown, runId: string, _parentRunId?: string, _extra?: unknown, tags?: string[], metadata?: Record<string, unknown>): void {
    if (metadata?.langgraph_node !== ASSISTANT_NODE) return;
    if (tags?.some((tag) => INNER_CALL_TAGS.includes(tag))) return;
    this.runs.set(runId, { streamed: false });
  }

  override handleLLMNewToken(token: string, _idx: unknown, runId: string): void {
    const call = this.runs.get(runId);
    if (!call) return;
    call.streamed = true;
    this.onText(token);
  }

  override handleLLMEnd(output: LLMResult, runId: string): void {
    const call = this.runs.get(runId);
    if (!call) return;
    this.runs.delete(runId);
    if (call.streamed) return;
    const generation = output.generations?.[0]?.[0] as { text?: string; message?: { content?: unknown } } | undefined;
    this.onText(generation?.message ? messageText(generation.message.content) : (generation?.text ?? ''));
  }

  override handleLLMError(_error: unknown, runId: string): void {
    this.runs.delete(runId);
  }
}
