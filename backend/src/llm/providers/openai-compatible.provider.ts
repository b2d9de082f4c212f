import type { AppConfig } from '../../config/env.schema.js';
import type { ModelSpec, ProviderInfo, ToolCallingChatModel } from '../model-entry.js';
import type { ModelsConfigEntry } from '../models-config.js';
import { displayUrl, listOpenAIModels } from '../probe.js';
import { createOpenAICompatibleChat } from './openai-chat.js';
import type { ChatModelFactoryOptions, ModelProvider, ProbeOutcome } from './provider.js';

/**
 * One OpenAI-compatible endpoint declared in the MODELS_CONFIG file (entries sharing a base URL and
 * key variable share one instance, hence one probe).
 */
export class OpenAICompatibleProvider implements ModelProvider {
  readonly id = 'openai-compatible' as const;
  readonly key: string;
  private readonly baseURL: string;
  private readonly apiKeyEnv: string | undefined;

  constructor(
    private readonly config: AppConfig,
    private readonly entries: ModelsConfigEntry[],
    private readonly env: NodeJS.ProcessEnv,
  ) {
    this.baseURL = entries[0]!.base_url.replace(/\/+$/, '');
    this.apiKeyEnv = entries[0]!.api_key_env;
    this.key = `openai-compatible ${this.baseURL} ${this.apiKeyEnv ?? ''}`;
  }

  /** Groups the file's entries by endpoint. */
  static fromConfig(config: AppConfig, entries: ModelsConfigEntry[], env: NodeJS.ProcessEnv): OpenAICompatibleProvider[] {
    const groups = new Map<string, ModelsConfigEntry[]>();
    for (const entry of entries) {
      const key = `${entry.base_url.replace(/\/+$/, '')} ${entry.api_key_env ?? ''}`;
      groups.set(key, [...(groups.get(key) ?? []), entry]);
    }
    return [...groups.values()].map((group) => new OpenAICompatibleProvider(config, group, env));
  }

  info(): ProviderInfo {
    return {
      provider: this.id,
      label: `OpenAI-compatible endpoint ${displayUrl(this.baseURL)}`,
      configured: this.unconfiguredReason() === null,
      env: ['MODELS_CONFIG', ...(this.apiKeyEnv ? [this.apiKeyEnv] : [])],
      hint: this.apiKeyEnv ? `Declared in MODELS_CONFIG; set ${this.apiKeyEnv} to its API key.` : 'Declared in MODELS_CONFIG.',
    };
  }

  catalog(): ModelSpec[] {
    return this.entries.map((e) => ({
      name: e.name,
      provider: this.id,
      model_id: e.model,
      aliases: e.aliases,
      capabilities: { tool_calling: e.capabilities.tool_calling, context_window: e.capabilities.context_window },
    }));
  }

  unconfiguredReason(): string | null {
    return this.apiKeyEnv && !this.env[this.apiKeyEnv] ? `${this.apiKeyEnv} is not set` : null;
  }

  describe(): string {
    return `the server at ${displayUrl(this.baseURL)}`;
  }

  probe(signal: AbortSignal): Promise<ProbeOutcome> {
    return listOpenAIModels({
      label: this.describe(),
      baseURL: this.baseURL,
      apiKey: this.apiKey(),
      timeoutMs: this.config.MODEL_PROBE_TIMEOUT_MS,
      signal,
    });
  }

  createChatModel(spec: ModelSpec, options: ChatModelFactoryOptions): ToolCallingChatModel {
    return createOpenAICompatibleChat({
      baseURL: this.baseURL,
      apiKey: this.apiKey() ?? 'not-needed',
      model: spec.model_id,
      config: this.config,
      streaming: options.streaming,
    });
  }

  private apiKey(): string | undefined {
    return this.apiKeyEnv ? this.env[this.apiKeyEnv] : undefined;
  }
}
