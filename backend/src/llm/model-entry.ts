import type { ModelInfo } from '@aigis/contracts';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';

/** Where a model is served from. `openai-compatible` is an endpoint declared in the MODELS_CONFIG file. */
export type ProviderId = 'lmstudio' | 'deepseek' | 'openai' | 'anthropic' | 'ollama' | 'openai-compatible';

export type ModelCapabilities = ModelInfo['capabilities'];

/**
 * A model's context window when neither its catalog entry nor MODELS_CONFIG gives one: the hosted APIs' current
 * windows (OpenAI 128 k, Anthropic 200 k, DeepSeek 64 k, its older and smaller one); for local servers the window
 * they load a model with unless told otherwise (LM Studio and Ollama: 4 k); 8 k for an unknown OpenAI-compatible
 * endpoint. Too small only trims older turns sooner; too large would overflow the model.
 */
export const DEFAULT_CONTEXT_WINDOW: Record<ProviderId, number> = {
  lmstudio: 4096,
  ollama: 4096,
  deepseek: 65_536,
  openai: 128_000,
  anthropic: 200_000,
  'openai-compatible': 8192,
};

/** A model as a provider declares it, before its availability is known. */
export interface ModelSpec {
  /** The name users pick (unique, case-insensitive). */
  name: string;
  provider: ProviderId;
  /** The id sent upstream. */
  model_id: string;
  aliases: string[];
  capabilities: ModelCapabilities;
}

/** How a provider is enabled, for the "no model" message and the models screen. */
export interface ProviderInfo {
  provider: ProviderId;
  /** Human name ("LM Studio"). */
  label: string;
  configured: boolean;
  /** The environment variables that configure it. */
  env: string[];
  hint: string;
}

export interface ChatModelOptions {
  /** Aborts every call of the returned model (and of models derived from it by bindTools). */
  signal?: AbortSignal;
  /** true: always stream from upstream; false: never (the provider answers in one piece); unset: LangChain decides. */
  streaming?: boolean;
}

/** A LangChain chat model whose bindTools is present (BaseChatModel declares it optional; all ours have it). */
export type ToolCallingChatModel = BaseChatModel & { bindTools: NonNullable<BaseChatModel['bindTools']> };
