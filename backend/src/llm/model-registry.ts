import type { ModelInfo } from '@aigis/contracts';
import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { ChatModelCache } from './chat-model-cache.js';
import { type ChatModelOptions, DEFAULT_CONTEXT_WINDOW, type ProviderId, type ProviderInfo, type ToolCallingChatModel } from './model-entry.js';
import { assertUniqueNames, buildModelView, type ModelEntry, type ModelView } from './model-view.js';
import { ProviderProbes } from './provider-probes.js';
import { createProviders } from './providers/provider-factories.js';
import type { ModelProvider } from './providers/provider.js';

/** Optional injection token: where `api_key_env` names of MODELS_CONFIG are looked up (default process.env). */
export const MODEL_ENV = Symbol('MODEL_ENV');

/**
 * Every model Aigis knows, whether each can be used right now and why not, and the LangChain chat
 * model for one. Availability comes from cached probes that are refreshed in the background
 * (ProviderProbes), so no answer here ever waits on a slow or dead server.
 */
@Injectable()
export class ModelRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly sources: ModelProvider[];
  private readonly probes: ProviderProbes;
  private readonly chatModels = new ChatModelCache();
  /** The current view, rebuilt only when a probe answer changes it (lookups happen several times per message). */
  private view?: ModelView;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(MODEL_ENV) env?: NodeJS.ProcessEnv,
  ) {
    this.sources = createProviders(config, env ?? process.env);
    assertUniqueNames(this.sources);
    this.probes = new ProviderProbes(this.sources, config.MODEL_PROBE_TTL_S * 1000, () => (this.view = undefined));
  }

  onModuleInit(): void {
    this.probes.revalidate();
  }

  onModuleDestroy(): void {
    this.probes.close();
  }

  /** Every model with its availability, from the cache at once; stale probes are refreshed in the background. */
  list(): ModelInfo[] {
    this.probes.revalidate();
    return this.current().entries.map((e) => e.info);
  }

  /** How each provider is enabled. */
  providers(): ProviderInfo[] {
    const builtIn = this.sources.filter((s) => s.id !== 'openai-compatible').map((s) => s.info());
    const declared = this.sources.filter((s) => s.id === 'openai-compatible').map((s) => s.info());
    const placeholder: ProviderInfo = {
      provider: 'openai-compatible',
      label: 'OpenAI-compatible endpoints',
      configured: false,
      env: ['MODELS_CONFIG'],
      hint: 'Set MODELS_CONFIG to a JSON file: {"models":[{"name","base_url","api_key_env","model","aliases","capabilities":{"tool_calling","context_window"}}]}.',
    };
    return [...builtIn, ...(declared.length ? declared : [placeholder])];
  }

  /** The model named by a name, alias or upstream id (case-insensitive); UNKNOWN_MODEL lists the valid names. */
  resolve(nameOrAlias: string): ModelInfo {
    return this.find(nameOrAlias).info;
  }

  /** Tokens the model takes in one call: its own window (catalog or MODELS_CONFIG), else its provider's default. */
  contextWindow(nameOrAlias: string): number {
    const { capabilities, provider } = this.find(nameOrAlias).info;
    const configured = provider === 'lmstudio' ? this.config.LM_STUDIO_CONTEXT_WINDOW : provider === 'ollama' ? this.config.OLLAMA_CONTEXT_WINDOW : undefined;
    return capabilities.context_window ?? configured ?? DEFAULT_CONTEXT_WINDOW[provider as ProviderId];
  }

  /**
   * A LangChain chat model for the named model, resolved per call: nothing captures a model (instances are reused
   * per spec, ChatModelCache). Throws MODEL_UNAVAILABLE, naming the alternatives, when the model is known to be
   * unusable; a model whose first probe is still running is tried.
   */
  chatModel(nameOrAlias: string, options: ChatModelOptions = {}): ToolCallingChatModel {
    const entry = this.usable(nameOrAlias);
    return this.chatModels.get(entry.provider, entry.spec, options);
  }

  /** The model if it can be used now; MODEL_UNAVAILABLE (naming the alternatives) otherwise. No model is created. */
  ensureUsable(nameOrAlias: string): ModelInfo {
    return this.usable(nameOrAlias).info;
  }

  /** DEFAULT_MODEL when it resolves and is available, else the first available tool-calling model, else null. */
  defaultModel(): ModelInfo | null {
    this.probes.revalidate();
    const { entries, index } = this.current();
    if (this.config.DEFAULT_MODEL) {
      const wanted = index.get(this.config.DEFAULT_MODEL.toLowerCase());
      if (wanted?.status === 'available') return wanted.info;
    }
    return entries.find((e) => e.status === 'available' && e.info.capabilities.tool_calling)?.info ?? null;
  }

  /** The thread's model (UNKNOWN_MODEL if it no longer exists), else the default, else NO_MODEL. */
  modelForThread(threadModel: string | null | undefined): ModelInfo {
    if (threadModel) return this.resolve(threadModel);
    const fallback = this.defaultModel();
    if (fallback) return fallback;
    throw new AppError('NO_MODEL', this.noModelMessage());
  }

  /** What to set to get a model, plus why configured providers are not answering. */
  noModelMessage(): string {
    const ways = this.sources
      .filter((s) => s.id !== 'openai-compatible')
      .map((s) => {
        const models = s.catalog().map((m) => m.name);
        return `${s.info().env[0]} (${s.info().label}${models.length ? `: ${models.join(', ')}` : ''})`;
      });
    ways.push('MODELS_CONFIG (a JSON file of OpenAI-compatible endpoints)');
    const failing = new Set(
      this.current()
        .entries.filter((e) => e.status === 'unavailable' && e.provider.unconfiguredReason() === null && e.info.reason)
        .map((e) => e.info.reason!),
    );
    const down = failing.size ? ` Configured but not usable: ${[...failing].join('; ')}.` : '';
    return `No language model is available. Enable one by setting ${ways.slice(0, -1).join(', ')} or ${ways.at(-1)}.${down}`;
  }

  /** Probes every configured server now and waits for the answers (each bounded by MODEL_PROBE_TIMEOUT_MS). */
  refresh(): Promise<void> {
    return this.probes.refresh();
  }

  private usable(nameOrAlias: string): ModelEntry {
    const entry = this.find(nameOrAlias);
    if (entry.status === 'unavailable') {
      const available = this.current()
        .entries.filter((e) => e.status === 'available')
        .map((e) => e.info.name);
      const alternatives = available.length ? `Available models: ${available.join(', ')}.` : this.noModelMessage();
      throw new AppError('MODEL_UNAVAILABLE', `Model "${entry.info.name}" is not available: ${entry.info.reason}. ${alternatives}`, {
        model: entry.info.name,
        reason: entry.info.reason,
        available,
      });
    }
    return entry;
  }

  private find(nameOrAlias: string): ModelEntry {
    this.probes.revalidate();
    const { entries, index } = this.current();
    const entry = index.get(nameOrAlias.trim().toLowerCase());
    if (entry) return entry;
    const names = entries.map((e) => e.info.name);
    const aliases = entries.flatMap((e) => e.info.aliases.map((a) => `${a}→${e.info.name}`));
    throw new AppError(
      'UNKNOWN_MODEL',
      `Unknown model "${nameOrAlias}". Valid names: ${names.join(', ')}${aliases.length ? ` (aliases: ${aliases.join(', ')})` : ''}.`,
      { valid: names },
    );
  }

  private current(): ModelView {
    return (this.view ??= buildModelView(this.sources, (source) => this.probes.snapshot(source)));
  }
}
