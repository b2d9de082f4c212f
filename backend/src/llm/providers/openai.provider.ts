import { ChatOpenAI } from '@langchain/openai';
import type { AppConfig } from '../../config/env.schema.js';
import type { ModelSpec, ProviderInfo, ToolCallingChatModel } from '../model-entry.js';
import { displayUrl } from '../probe.js';
import type { ChatModelFactoryOptions, ModelProvider } from './provider.js';

const CONTEXT_WINDOWS: [RegExp, number][] = [
  [/^gpt-4o/, 128_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^o\d/, 200_000],
];

/** OpenAI (or a compatible gateway at OPENAI_BASE_URL); the models are the ones named in OPENAI_MODELS. */
export class OpenAIProvider implements ModelProvider {
  readonly id = 'openai' as const;
  readonly key = 'openai';

  constructor(private readonly config: AppConfig) {}

  info(): ProviderInfo {
    return {
      provider: this.id,
      label: 'OpenAI',
      configured: Boolean(this.config.OPENAI_API_KEY),
      env: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODELS'],
      hint: 'Set OPENAI_API_KEY (and OPENAI_MODELS, a comma-separated list, to choose the models).',
    };
  }

  catalog(): ModelSpec[] {
    return splitList(this.config.OPENAI_MODELS).map((id) => ({
      name: id,
      provider: this.id,
      model_id: id,
      aliases: [],
      capabilities: { tool_calling: true, context_window: CONTEXT_WINDOWS.find(([re]) => re.test(id))?.[1] ?? null },
    }));
  }

  unconfiguredReason(): string | null {
    return this.config.OPENAI_API_KEY ? null : 'OPENAI_API_KEY is not set';
  }

  describe(): string {
    return `OpenAI at ${displayUrl(this.config.OPENAI_BASE_URL ?? 'https://api.openai.com/v1')}`;
  }

  createChatModel(spec: ModelSpec, options: ChatModelFactoryOptions): ToolCallingChatModel {
    // Reasoning models (o1, o3, gpt-5…) reject any temperature but the default.
    const reasoning = /^o\d/.test(spec.model_id) || (spec.model_id.startsWith('gpt-5') && !spec.model_id.startsWith('gpt-5-chat'));
    return new ChatOpenAI({
      model: spec.model_id,
      apiKey: this.config.OPENAI_API_KEY!,
      ...(reasoning ? {} : { temperature: 0 }),
      maxRetries: this.config.LLM_MAX_RETRIES,
      timeout: this.config.LLM_TIMEOUT_MS,
      ...(options.streaming === undefined ? {} : { streaming: options.streaming }),
      configuration: this.config.OPENAI_BASE_URL ? { baseURL: this.config.OPENAI_BASE_URL } : {},
    });
  }
}

/** "a, b,,a" → ["a", "b"]. */
export function splitList(value: string): string[] {
  return [...new Set(value.split(',').map((s) => s.trim()).filter(Boolean))];
}
