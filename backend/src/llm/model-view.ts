import type { ModelInfo } from '@aigis/contracts';
import { ConfigError } from '../config/env.schema.js';
import type { ModelSpec } from './model-entry.js';
import type { ModelProvider, ProbeOutcome } from './providers/provider.js';

export type ModelStatus = 'available' | 'unavailable' | 'checking';

/** One model as the registry answers for it now. */
export interface ModelEntry {
  info: ModelInfo;
  /** The spec as used upstream (model_id may be the server's spelling of it). */
  spec: ModelSpec;
  provider: ModelProvider;
  status: ModelStatus;
}

/** What asking a provider's server gave so far (ProviderProbes). */
export interface ProbeSnapshot {
  /** The latest applied answer; undefined until the first probe finishes. */
  outcome?: ProbeOutcome;
  /** The last successful listing (null: the server does not list); kept while the server is down. */
  listed: string[] | null;
}

/** Every model with its availability, and each by its lowercased name, alias or upstream id. */
export interface ModelView {
  entries: ModelEntry[];
  index: Map<string, ModelEntry>;
}

/**
 * The models of `sources` as they stand: catalog entries with their availability (configuration, then the
 * server's answer, `probed`), then the models only the servers list. A discovered model never takes a name
 * another model already has.
 */
export function buildModelView(sources: readonly ModelProvider[], probed: (source: ModelProvider) => ProbeSnapshot | undefined): ModelView {
  const out: ModelEntry[] = [];
  const taken = new Set(sources.flatMap((s) => s.catalog().flatMap((m) => [m.name, ...m.aliases].map((k) => k.toLowerCase()))));
  const push = (provider: ModelProvider, spec: ModelSpec, status: ModelStatus, reason?: string) => {
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

  for (const source of sources) {
    const unconfigured = source.unconfiguredReason();
    const state = probed(source);
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
      const name = taken.has(spec.name.toLowerCase()) ? `${source.id}/${spec.name}` : spec.name;
      if (taken.has(name.toLowerCase())) continue;
      taken.add(name.toLowerCase());
      const ok = outcome?.ok === true;
      push(source, { ...spec, name }, ok ? 'available' : 'unavailable', ok ? undefined : (outcome as { reason?: string })?.reason);
    }
  }
  return { entries: out, index: indexEntries(out) };
}

/** Lowercased name → entry; names first, then aliases, then upstream ids where still free. */
function indexEntries(entries: ModelEntry[]): Map<string, ModelEntry> {
  const index = new Map<string, ModelEntry>();
  const add = (key: string, entry: ModelEntry) => {
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

/** Two catalog models with the same name or alias would make lookups ambiguous: refuse to boot. */
export function assertUniqueNames(sources: readonly ModelProvider[]): void {
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
