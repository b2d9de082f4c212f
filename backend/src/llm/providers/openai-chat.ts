import { ChatOpenAICompletions } from '@langchain/openai';
import type { AppConfig } from '../../config/env.schema.js';

export interface OpenAIChatParams {
  baseURL: string;
  /** Required: without one ChatOpenAI would fall back to OPENAI_API_KEY and send it to this server. */
  apiKey: string;
  model: string;
  config: Pick<AppConfig, 'LLM_TIMEOUT_MS' | 'LLM_MAX_RETRIES'>;
  streaming?: boolean;
}

/**
 * A chat model for an OpenAI-compatible server (LM Studio, DeepSeek, Ollama's /v1, declared endpoints).
 * ChatOpenAICompletions is ChatOpenAI pinned to Chat Completions: ChatOpenAI switches some model
 * names (…codex…, …-pro) to the Responses API, which these servers do not have.
 */
export function createOpenAICompatibleChat(params: OpenAIChatParams): ChatOpenAICompletions {
  return new ChatOpenAICompletions({
    model: params.model,
    apiKey: params.apiKey,
    temperature: 0,
    // LangChain retries 429 (with Retry-After), 5xx, timeouts and connection errors with backoff.
    maxRetries: params.config.LLM_MAX_RETRIES,
    timeout: params.config.LLM_TIMEOUT_MS,
    ...(params.streaming === undefined ? {} : { streaming: params.streaming }),
    configuration: { baseURL: params.baseURL },
  });
}
