import type { AppConfig } from '../../config/env.schema.js';
import type { ModelSpec, ProviderInfo, ToolCallingChatModel } from '../model-entry.js';
import { displayUrl } from '../probe.js';
import { createOpenAICompatibleChat } from './openai-chat.js';
import type { ChatModelFactoryOptions, ModelProvider } from './provider.js';

const MODELS: Omit<ModelSpec, 'provider'>[] = [
  { name: 'deepseek-chat', model_id: 'deepseek-chat', aliases: ['deepseek'], capabilities: { tool_calling: true, context_window: 131_072 } },
  // The reasoner cannot take part in the agent's tool loop.
  { name: 'deepseek-reasoner', model_id: 'deepseek-reasoner', aliases: [], capabilities: { tool_calling: false, context_window: 131_072 } },
];

/** DeepSeek's hosted API (OpenAI-compatible); available when its key is set. */
export class DeepSeekProvider implements ModelProvider {
  readonly id = 'deepseek' as const;
  readonly key = 'deepseek';

  constructor(private readonly config: AppConfig) {}

  info(): ProviderInfo {
    return {
      provider: this.id,
      label: 'DeepSeek',
      configured: Boolean(this.config.DEEPSEEK_API_KEY),
      env: ['DEEPSEEK_API_KEY', 'DEEPSEEK_BASE_URL'],
      hint: 'Set DEEPSEEK_API_KEY for deepseek-chat and deepseek-reasoner.',
    };
  }

  catalog(): ModelSpec[] {
    return MODELS.map((m) => ({ ...m, provider: this.id }));
  }

  unconfiguredReason(): string | null {
    return this.config.DEEPSEEK_API_KEY ? null : 'DEEPSEEK_API_KEY is not set';
  }

  describe(): string {
    return `DeepSeek at ${displayUrl(this.config.DEEPSEEK_BASE_URL)}`;
  }

  createChatModel(spec: ModelSpec, options: ChatModelFactoryOptions): ToolCallingChatModel {
    return createOpenAICompatibleChat({
      baseURL: this.config.DEEPSEEK_BASE_URL.replace(/\/+$/, ''),
      apiKey: this.config.DEEPSEEK_API_KEY!,
      model: spec.model_id,
      config: this.config,
      streaming: options.streaming,
    });
  }
}
