import type { ModelInfo } from '@aigis/contracts';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import { APP_CONFIG } from '../config/config.module.js';
import { ConfigError, type AppConfig } from '../config/env.schema.js';
import { bindAbortSignal } from './abort-signal.js';
import { type ChatModelOptions, DEFAULT_CONTEXT_WINDOW, type ModelSpec, type ProviderId, type ProviderInfo, type ToolCallingChatModel } from './model-entry.js';
import { createProviders } from './providers/provider-factories.js';
import type { ModelProvider, ProbeOutcome } from './providers/provider.js';

/** Optional injection token: where `api_key_env` names of MODELS_CONFIG are looked up (default process.env). */
export const MODEL_ENV = Symbol('MODEL_ENV');

interface ProbeState {
  /** The latest applied answer; undefined until the first probe finishes. */
  outcome?: ProbeOutcome;
  /** The last successful listing (null: the server does not list); kept while the server is down. */
  listed: string[] | null;
  checkedAt: number;
  inflight?: Promise<void>;
  started: number;
  applied: number;
}

type Status = 'available' | 'unavailable' | 'checking';

interface Entry {
  info: ModelInfo;
  /** The spec as used upstream (model_id may be the server's spelling of it). */
  spec: ModelSpec;
  provider: ModelProvider;
  status: Status;
}

/**
 * Every model Aigis knows, whether each can be used right now and why not, and the LangChain chat
 * model for one. Availability comes from cached probes that are refreshed in the background, so no
 * answer here ever waits on a slow or dead server.
 */
@Injectable()
export class ModelRegistry implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ModelRegistry.name);
  private readonly sources: ModelProvider[];
  private readonly declared: ModelProvider[];
  private readonly states = new Map<ModelProvider, ProbeState>();
  private readonly shutdown = new AbortController();
  /** The current view, rebuilt only when a probe answer changes it (lookups happen several times per message). */
  private view?: { entries: Entry[]; index: Map<string, Entry> };
  /** Chat model instances per spec object and streaming option. */
  private readonly instances = new WeakMap<ModelSpec, Map<string, ToolCallingChatModel>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(MODEL_ENV) env?: NodeJS.ProcessEnv,
  ) {
    this.sources = createProviders(config, env ?? process.env);
    this.declared = this.sources.filter((s) => s.id === 'openai-compatible');
    assertUniqueNames(this.sources);
    for (const source of this.sources) {
      if (source.probe) this.states.set(source, { listed: [], checkedAt: 0, started: 0, applied: 0 });
    }
  }

  onModuleInit(): void {
    this.revalidate();
  }

  onModuleDestroy(): void {
    this.shutdown.abort();
  }

  /** Every model with its availability, from the cache at once; stale probes are refreshed in the background. */
  list(): ModelInfo[] {
    this.revalidate();
    return this.entries().map((e) => e.info);
  }

  /** How each provider is enabled. */
  providers(): ProviderInfo[] {
    const builtIn = this.sources.filter((s) => s.id !== 'openai-compatible').map((s) => s.info());
    const declared = this.declared.length
      ? this.declared.map((s) => s.info())
      : [
          {
            provider: 'openai-compatible' as const,
            label: 'OpenAI-compatible endpoints',
            configured: false,
            env: ['MODELS_CONFIG'],
            hint:
              'Set MODELS_CONFIG to a JSON file: {"models":[{"name","base_url","api_key_env","model","aliases","capabilities":{"tool_calling","context_window"}}]}.',
          },
        ];
    return [...builtIn, ...declared];
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
   * A LangChain chat model for the named model, resolved per call: nothing captures a model. The
   * instance for a given spec is reused (its HTTP client and connection pool with it); a spec that
   * changes (a server that renames a model) is a new object and gets a new instance.
   * Throws MODEL_UNAVAILABLE, naming the alternatives, when the model is known to be unusable; a
   * model whose first probe is still running is tried.
   */
  chatModel(nameOrAlias: string, options: ChatModelOptions = {}): ToolCallingChatModel {
    const entry = this.usable(nameOrAlias);
    const key = String(options.streaming);
    let perSpec = this.instances.get(entry.spec);
    if (!perSpec) this.instances.set(entry.spec, (perSpec = new Map()));
    let model = perSpec.get(key);
    if (!model) perSpec.set(key, (model = entry.provider.createChatModel(entry.spec, { streaming: options.streaming })));
    return options.signal ? bindAbortSignal(model, options.signal) : model;
  }

  /** The model if it can be used now; MODEL_UNAVAILABLE (naming the alternatives) otherwise. No model is created. */
  ensureUsable(nameOrAlias: string): ModelInfo {
    return this.usable(nameOrAlias).info;
  }

  private usable(nameOrAlias: string): Entry {
    const entry = this.find(nameOrAlias);
    if (entry.status === 'unavailable') {
      const available = this.entries()
        .filter((e) => e.status === 'available')
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

  /** DEFAULT_MODEL when it resolves and is available, else the first available tool-calling model, else null. */
  defaultModel(): ModelInfo | null {
    this.revalidate();
    const entries = this.entries();
    if (this.config.DEFAULT_MODEL) {
      const wanted = this.index().get(this.config.DEFAULT_MODEL.toLowerCase());
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
      this.entries()
        .filter((e) => e.status === 'unavailable' && e.provider.unconfiguredReason() === null && e.info.reason)
        .map((e) => e.info.reason!),
    );
    const down = failing.size ? ` Configured but not usable: ${[...failing].join('; ')}.` : '';
    return `No language model is available. Enable one by setting ${ways.slice(0, -1).join(', ')} or ${ways.at(-1)}.${down}`;
  }

  /** Probes every configured server now and waits for the answers (each bounded by MODEL_PROBE_TIMEOUT_MS). */
  async refresh(): Promise<void> {
    await Promise.all([...this.states.keys()].filter((s) => s.unconfiguredReason() === null).map((s) => this.probe(s)));
  }

  private find(nameOrAlias: string): Entry {
    this.revalidate();
    const entries = this.entries();
    const entry = this.index().get(nameOrAlias.trim().toLowerCase());
    if (entry) return entry;
    const names = entries.map((e) => e.info.name);
    const aliases = entries.flatMap((e) => e.info.aliases.map((a) => `${a}→${e.info.name}`));
    throw new AppError(
      'UNKNOWN_MODEL',
      `Unknown model "${nameOrAlias}". Valid names: ${names.join(', ')}${aliases.length ? ` (aliases: ${aliases.join(', ')})` : ''}.`,
      { valid: names },
    );
  }

  /** Starts a background probe for every configured server whose answer is older than the TTL. */
  private revalidate(): void {
    if (this.shutdown.signal.aborted) return;
    const now = Date.now();
    for (const [source, state] of this.states) {
      if (state.inflight || source.unconfiguredReason() !== null) continue;
      if (state.checkedAt === 0 || now - state.checkedAt > this.config.MODEL_PROBE_TTL_S * 1000) void this.probe(source);
    }
  }

  private probe(source: ModelProvider): Promise<void> {
    const state = this.states.get(source)!;
    const seq = ++state.started;
    const run = (async () => {
      let outcome: ProbeOutcome;
      try {
        outcome = await source.probe!(this.shutdown.signal);
      } catch (error) {
        outcome = { ok: false, reason: `${source.describe()} could not be checked (${(error as Error)?.message ?? String(error)})` };
      }
      // A forced refresh may overtake a background probe; the newest answer wins.
      if (seq <= state.applied) return;
      const previous = state.outcome;
      state.applied = seq;
      state.outcome = outcome;
      this.view = undefined;
      state.checkedAt = Date.now();
      if (outcome.ok) state.listed = outcome.models;
      if (previous?.ok !== outcome.ok) {
        if (outcome.ok) this.logger.log(capitalize(`${source.describe()} is up${outcome.models ? ` (models listed: ${outcome.models.length})` : ''}`));
        else this.logger.warn(capitalize(`${outcome.reason}: its models are unavailable`));
      }
    })();
    state.inflight = run;
    void run.finally(() => {
      if (state.inflight === run) state.inflight = undefined;
    });
    return run;
  }

  private index(): Map<string, Entry> {
    this.entries();
    return this.view!.index;
  }

  /** The current view: catalog entries with their availability, then models only the servers know. */
  private entries(): Entry[] {
    if (this.view) return this.view.entries;
    const out: Entry[] = [];
    const taken = new Set(this.sources.flatMap((s) => s.catalog().flatMap((m) => [m.name, ...m.aliases].map((k) => k.toLowerCase()))));
    const push = (provider: ModelProvider, spec: ModelSpec, status: Status, reason?: string) => {
      out.push({
        spec,
        provider,
        status,
        info: {
          name: spec.name,
          provider: spec.provider,
          model_id: spec.model_id,
          available: status === 'available',
          ...(status === 'available' ? {} : { reason }),
          aliases: [...spec.aliases],
          capabilities: { ...spec.capabilities },
        },
      });
    };

    for (const source of this.sources) {
      const unconfigured = source.unconfiguredReason();
      const state = this.states.get(source);
      if (unconfigured !== null || !state) {
        for (const spec of source.catalog()) push(source, spec, unconfigured === null ? 'available' : 'unavailable', unconfigured ?? undefined);
        continue;
      }
      const { outcome, listed } = state;
      const matched = new Set<string>();
      for (const spec of source.catalog()) {
        const id = listed ? matchListed(spec.model_id, listed) : undefined;
        if (id) matched.add(id);
        const effective = id ? { ...spec, model_id: id } : spec;
        if (!outcome) push(source, effective, 'checking', `checking ${source.describe()}…`);
        else if (!outcome.ok) push(source, effective, 'unavailable', outcome.reason);
        else if (listed === null || id) push(source, effective, 'available');
        else push(source, spec, 'unavailable', `not listed by ${source.describe()}`);
      }
      if (!source.discover || !listed) continue;
      for (const id of listed) {
        if (matched.has(id)) continue;
        const spec = source.discover(id);
        if (!spec) continue;
        // A discovered model never takes a name another model already has.
        const name = taken.has(spec.name.toLowerCase()) ? `${source.id}/${spec.name}` : spec.name;
        if (taken.has(name.toLowerCase())) continue;
        taken.add(name.toLowerCase());
        const ok = outcome?.ok === true;
        push(source, { ...spec, name }, ok ? 'available' : 'unavailable', ok ? undefined : (outcome as { reason?: string })?.reason);
      }
    }
    this.view = { entries: out, index: indexEntries(out) };
    return out;
  }
}

/** Lowercased name → entry; names first, then aliases, then upstream ids where still free. */
function indexEntries(entries: Entry[]): Map<string, Entry> {
  const index = new Map<string, Entry>();
  const add = (key: string, entry: Entry) => {
    if (!index.has(key.toLowerCase())) index.set(key.toLowerCase(), entry);
  };
  for (const e of entries) add(e.info.name, e);
  for (const e of entries) for (const a of e.info.aliases) add(a, e);
  for (const e of entries) add(e.info.model_id, e);
  return index;
}

/**
 * The server's id for a catalog model: the same id, or the same last segment ("openai/gpt-oss-20b"
 * vs "gpt-oss-20b"), since LM Studio versions spell the same model both ways.
 */
function matchListed(modelId: string, listed: string[]): string | undefined {
  const wanted = modelId.toLowerCase();
  const exact = listed.find((id) => id.toLowerCase() === wanted);
  if (exact) return exact;
  const base = wanted.split('/').at(-1);
  return listed.find((id) => id.toLowerCase().split('/').at(-1) === base);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Two catalog models with the same name or alias would make `resolve` ambiguous: refuse to boot. */
function assertUniqueNames(sources: ModelProvider[]): void {
  const owners = new Map<string, string>();
  const problems: string[] = [];
  for (const source of sources) {
    for (const spec of source.catalog()) {
      for (const key of [spec.name, ...spec.aliases]) {
        const owner = owners.get(key.toLowerCase());
        const me = `${spec.name} (${spec.provider})`;
        if (owner !== undefined && owner !== me) problems.push(`model name or alias "${key}" of ${me} is already used by ${owner}`);
        else owners.set(key.toLowerCase(), me);
      }
    }
  }
  if (problems.length) throw new ConfigError(problems);
}
