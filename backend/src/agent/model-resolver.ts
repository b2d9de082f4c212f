import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

/** What the agent needs from the model registry: nothing is captured at import, every call resolves by name. */
export interface ModelResolver {
  chatModel(name: string, options?: { signal?: AbortSignal }): BaseChatModel;
  supportsTools(name: string): boolean;
  /** Tokens the model takes in one call (its configured window, or its provider's default). */
  contextWindow(name: string): number;
}
