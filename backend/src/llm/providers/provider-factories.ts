import type { AppConfig } from '../../config/env.schema.js';
import type { ProviderId } from '../model-entry.js';
import { loadModelsConfig } from '../models-config.js';
import { AnthropicProvider } from './anthropic.provider.js';
import { DeepSeekProvider } from './deepseek.provider.js';
import { LmStudioProvider } from './lm-studio.provider.js';
import { OllamaProvider } from './ollama.provider.js';
import { OpenAICompatibleProvider } from './openai-compatible.provider.js';
import { OpenAIProvider } from './openai.provider.js';
import type { ModelProvider } from './provider.js';

/** Builds a kind's providers from the validated config (and, for MODELS_CONFIG keys, the environment). */
export type ProviderFactory = (config: AppConfig, env: NodeJS.ProcessEnv) => ModelProvider[];

/** One factory per provider kind, in the order the registry lists them; nothing else constructs a provider. */
export const PROVIDER_FACTORIES: Record<ProviderId, ProviderFactory> = {
  lmstudio: (config) => [new LmStudioProvider(config)],
  deepseek: (config) => [new DeepSeekProvider(config)],
  openai: (config) => [new OpenAIProvider(config)],
  anthropic: (config) => [new AnthropicProvider(config)],
  ollama: (config) => [new OllamaProvider(config)],
  // One provider per endpoint declared in the MODELS_CONFIG file.
  'openai-compatible': (config, env) => OpenAICompatibleProvider.fromConfig(config, loadModelsConfig(config.MODELS_CONFIG), env),
};

export function createProviders(config: AppConfig, env: NodeJS.ProcessEnv): ModelProvider[] {
  return Object.values(PROVIDER_FACTORIES).flatMap((factory) => factory(config, env));
}
