import { Logger } from '@nestjs/common';
import type { ProbeSnapshot } from './model-view.js';
import type { ModelProvider, ProbeOutcome } from './providers/provider.js';

interface ProbeState extends ProbeSnapshot {
  checkedAt: number;
  inflight?: Promise<void>;
  started: number;
  applied: number;
}

/**
 * The cached answers of the servers that must be asked which models they serve (providers with `probe`). A stale
 * answer is refreshed in the background: nothing that reads the cache waits on a slow or dead server.
 */
export class ProviderProbes {
  // Logged under the registry's name: these lines tell an operator why its models are (un)available.
  private readonly logger = new Logger('ModelRegistry');
  private readonly states = new Map<ModelProvider, ProbeState>();
  private readonly shutdown = new AbortController();

  /** `onAnswer` runs whenever an answer is applied (what the registry shows may have changed). */
  constructor(
    sources: readonly ModelProvider[],
    private readonly ttlMs: number,
    private readonly onAnswer: () => void,
  ) {
    for (const source of sources) {
      if (source.probe) this.states.set(source, { listed: [], checkedAt: 0, started: 0, applied: 0 });
    }
  }

  /** What the source's server answered so far; undefined for a source that is never asked. */
  snapshot(source: ModelProvider): ProbeSnapshot | undefined {
    return this.states.get(source);
  }

  /** Starts a background probe for every configured server whose answer is older than the TTL. */
  revalidate(): void {
    if (this.shutdown.signal.aborted) return;
    const now = Date.now();
    for (const [source, state] of this.states) {
      if (state.inflight || source.unconfiguredReason() !== null) continue;
      if (state.checkedAt === 0 || now - state.checkedAt > this.ttlMs) void this.probe(source);
    }
  }

  /** Probes every configured server now and waits for the answers (each bounded by its probe's timeout). */
  async refresh(): Promise<void> {
    await Promise.all([...this.states.keys()].filter((s) => s.unconfiguredReason() === null).map((s) => this.probe(s)));
  }

  /** Aborts the probes in flight; no new one starts. */
  close(): void {
    this.shutdown.abort();
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
      state.checkedAt = Date.now();
      if (outcome.ok) state.listed = outcome.models;
      this.onAnswer();
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
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
