import { ChatAnthropic } from '@langchain/anthropic';
import type { AppConfig } from '../../config/env.schema.js';
import type { ModelSpec, ProviderInfo, ToolCallingChatModel } from '../model-entry.js';
import { splitList } from './openai.provider.js';
import type { ChatModelFactoryOptions, ModelProvider } from './provider.js';

/** Anthropic's API through ChatAnthropic; the models are the ones named in ANTHROPIC_MODELS. */
export class AnthropicProvider implements ModelProvider {
  readonly id = 'anthropic' as const;
  readonly key = 'anthropic';

  constructor(private readonly config: AppConfig) {}

  info(): ProviderInfo {
    return {
      provider: this.id,
      label: 'Anthropic',
      configured: Boolean(this.config.ANTHROPIC_API_KEY),
      env: ['ANTHROPIC_API_KEY', 'ANTHROPIC_MODELS'],
      hint: 'Set ANTHROPIC_API_KEY (and ANTHROPIC_MODELS, a comma-separated list, to choose the models).',
    };
  }

  catalog(): ModelSpec[] {
    return splitList(this.config.ANTHROPIC_MODELS).map((id) => ({
      name: id,
      provider: this.id,
      model_id: id,
      aliases: [],
      capabilities: { tool_calling: true, context_window: id.startsWith('claude') ? 200_000 : null },
    }));
  }

  unconfiguredReason(): string | null {
    return this.config.ANTHROPIC_API_KEY ? null : 'ANTHROPIC_API_KEY is not set';
  }

  describe(): string {
    return 'Anthropic';
  }

  createChatModel(spec: ModelSpec, options: ChatModelFactoryOptions): ToolCallingChatModel {
    return new ChatAnthropic({
      model: spec.model_id,
      apiKey: this.config.ANTHROPIC_API_KEY!,
      temperature: 0,
      maxRetries: this.config.LLM_MAX_RETRIES,
      clientOptions: { timeout: this.config.LLM_TIMEOUT_MS },
      ...(options.streaming === undefined ? {} : { streaming: options.streaming }),
    });
  }
}
