import type { AppConfig } from '../../config/env.schema.js';
import type { ModelSpec, ProviderInfo, ToolCallingChatModel } from '../model-entry.js';
import { displayUrl, listOpenAIModels, openAIBaseUrl } from '../probe.js';
import { createOpenAICompatibleChat } from './openai-chat.js';
import type { ChatModelFactoryOptions, ModelProvider, ProbeOutcome } from './provider.js';

/** The models Aigis was designed around; listed even before LM Studio is configured. */
const SEED_MODELS: Omit<ModelSpec, 'provider'>[] = [
  {
    name: 'gpt-oss-20b',
    model_id: 'openai/gpt-oss-20b',
    aliases: ['gpt_oss', 'gpt-oss'],
    capabilities: { tool_calling: true, context_window: 131_072 },
  },
  { name: 'qwen3-8b', model_id: 'qwen/qwen3-8b', aliases: ['qwen'], capabilities: { tool_calling: true, context_window: 32_768 } },
];

/** LM Studio's OpenAI-compatible server: the seed models plus whatever its `GET /v1/models` lists. */
export class LmStudioProvider implements ModelProvider {
  readonly id = 'lmstudio' as const;
  readonly key = 'lmstudio';
  private readonly baseURL: string | undefined;

  constructor(private readonly config: AppConfig) {
    this.baseURL = config.LM_STUDIO_ENDPOINT ? openAIBaseUrl(config.LM_STUDIO_ENDPOINT) : undefined;
  }

  info(): ProviderInfo {
    return {
      provider: this.id,
      label: 'LM Studio',
      configured: this.baseURL !== undefined,
      env: ['LM_STUDIO_ENDPOINT', 'LM_STUDIO_API_KEY'],
      hint: 'Set LM_STUDIO_ENDPOINT to the LM Studio server (e.g. http://localhost:1234/v1) for gpt-oss-20b, qwen3-8b and every model it has.',
    };
  }

  catalog(): ModelSpec[] {
    return SEED_MODELS.map((m) => ({ ...m, provider: this.id }));
  }

  unconfiguredReason(): string | null {
    return this.baseURL ? null : 'LM_STUDIO_ENDPOINT is not set';
  }

  describe(): string {
    return `LM Studio at ${displayUrl(this.baseURL ?? '')}`;
  }

  probe(signal: AbortSignal): Promise<ProbeOutcome> {
    return listOpenAIModels({
      label: this.describe(),
      baseURL: this.baseURL!,
      apiKey: this.config.LM_STUDIO_API_KEY,
      timeoutMs: this.config.MODEL_PROBE_TIMEOUT_MS,
      signal,
    });
  }

  discover(upstreamId: string): ModelSpec | null {
    // LM Studio lists its embedding models too; they cannot chat.
    if (/embed/i.test(upstreamId)) return null;
    return { name: upstreamId, provider: this.id, model_id: upstreamId, aliases: [], capabilities: { tool_calling: true, context_window: null } };
  }

  createChatModel(spec: ModelSpec, options: ChatModelFactoryOptions): ToolCallingChatModel {
    return createOpenAICompatibleChat({
      baseURL: this.baseURL!,
      apiKey: this.config.LM_STUDIO_API_KEY ?? 'lm-studio',
      model: spec.model_id,
      config: this.config,
      streaming: options.streaming,
    });
  }
}
