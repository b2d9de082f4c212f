import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import type { LLMResult } from '@langchain/core/outputs';
import type { TurnUsage } from '@aigis/contracts';

/**
 * Sums the tokens of every model call of one turn, tools' own calls included (they run with the turn's callbacks),
 * from what the provider reported: the message's `usage_metadata`, or the older `llmOutput.tokenUsage`.
 */
export class UsageMeter extends BaseCallbackHandler {
  name = 'AigisUsageMeter';
  private promptTokens = 0;
  private completionTokens = 0;

  override handleLLMEnd(output: LLMResult): void {
    const message = (output.generations?.[0]?.[0] as { message?: { usage_metadata?: { input_tokens?: number; output_tokens?: number } } } | undefined)?.message;
    const fromMessage = message?.usage_metadata;
    const fromOutput = output.llmOutput?.tokenUsage as { promptTokens?: number; completionTokens?: number } | undefined;
    this.promptTokens += count(fromMessage?.input_tokens ?? fromOutput?.promptTokens);
    this.completionTokens += count(fromMessage?.output_tokens ?? fromOutput?.completionTokens);
  }

  usage(modelCalls: number): TurnUsage {
    return { model_calls: modelCalls, prompt_tokens: this.promptTokens, completion_tokens: this.completionTokens };
  }
}

/** An upstream's number, if it is a sane one (a hostile server could send anything). */
function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.min(Math.floor(value), 1e9) : 0;
}
