import type { AppConfig } from '../../config/env.schema.js';
import type { ModelSpec, ProviderInfo, ToolCallingChatModel } from '../model-entry.js';
import { displayUrl, getJson } from '../probe.js';
import { createOpenAICompatibleChat } from './openai-chat.js';
import type { ChatModelFactoryOptions, ModelProvider, ProbeOutcome } from './provider.js';

/**
 * Ollama: models from its native `GET /api/tags`; chat through its OpenAI-compatible `/v1`, so
 * retries, timeouts, aborts and tool-call streaming behave exactly as for the other servers.
 */
export class OllamaProvider implements ModelProvider {
  readonly id = 'ollama' as const;
  readonly key = 'ollama';
  /** Without `/v1`: the native API lives at the root. */
  private readonly root: string | undefined;

  constructor(private readonly config: AppConfig) {
    this.root = config.OLLAMA_BASE_URL?.replace(/\/+$/, '').replace(/\/v1$/, '');
  }

  info(): ProviderInfo {
    return {
      provider: this.id,
      label: 'Ollama',
      configured: this.root !== undefined,
      env: ['OLLAMA_BASE_URL'],
      hint: 'Set OLLAMA_BASE_URL (e.g. http://localhost:11434) to use every model pulled into Ollama.',
    };
  }

  catalog(): ModelSpec[] {
    return [];
  }

  unconfiguredReason(): string | null {
    return this.root ? null : 'OLLAMA_BASE_URL is not set';
  }

  describe(): string {
    return `Ollama at ${displayUrl(this.root ?? '')}`;
  }

  async probe(signal: AbortSignal): Promise<ProbeOutcome> {
    const answer = await getJson({ label: this.describe(), url: `${this.root}/api/tags`, timeoutMs: this.config.MODEL_PROBE_TIMEOUT_MS, signal });
    if (!answer.ok) return answer;
    const models = (answer.body as { models?: unknown })?.models;
    if (!Array.isArray(models)) return { ok: false, reason: `${this.describe()} sent an unexpected answer to GET /api/tags` };
    return { ok: true, models: models.map((m) => (m as { name?: unknown })?.name).filter((n): n is string => typeof n === 'string') };
  }

  discover(upstreamId: string): ModelSpec | null {
    if (/embed/i.test(upstreamId)) return null;
    return { name: upstreamId, provider: this.id, model_id: upstreamId, aliases: [], capabilities: { tool_calling: true, context_window: null } };
  }

  createChatModel(spec: ModelSpec, options: ChatModelFactoryOptions): ToolCallingChatModel {
    return createOpenAICompatibleChat({
      baseURL: `${this.root}/v1`,
      apiKey: 'ollama',
      model: spec.model_id,
      config: this.config,
      streaming: options.streaming,
    });
  }
}
