import { createHash } from 'node:crypto';
import type { AdapterSettings, ConnectionTarget, DialectAdapter } from './dialects/dialect-adapter.js';
import { createAdapter } from './dialects/index.js';

export interface AdapterCacheOptions {
  /** At most this many open adapters (pools); the least recently used one is closed beyond it. */
  maxEntries: number;
  /** An adapter not asked for during this long is closed. */
  idleMs: number;
  /** How adapters are made (tests pass a fake); default: createAdapter. */
  factory?: (target: ConnectionTarget, settings: AdapterSettings) => DialectAdapter;
  /** Clock, for tests. */
  now?: () => number;
}

interface Entry {
  adapter: DialectAdapter;
  fingerprint: string;
  lastUsed: number;
}

/**
 * One adapter (one pool) per connection id, so queries reuse connections instead of logging in each time.
 * Bounded (LRU) and self-cleaning (idle adapters are closed by an unref'd timer); a changed target (host, user,
 * password, …) replaces the cached adapter.
 */
export class AdapterCache {
  // Map iteration order is insertion order: re-inserting on use keeps the least recently used first.
  private readonly entries = new Map<string, Entry>();
  private readonly factory: NonNullable<AdapterCacheOptions['factory']>;
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: AdapterCacheOptions) {
    this.factory = options.factory ?? createAdapter;
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => void this.sweep(), Math.max(250, Math.min(options.idleMs / 2, 60_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.entries.size;
  }

  /** The cached adapter for this target, or a new one (closing the old one when the target changed). */
  get(target: ConnectionTarget, settings: AdapterSettings): DialectAdapter {
    const fingerprint = fingerprintOf(target, settings);
    const existing = this.entries.get(target.id);
    this.entries.delete(target.id);
    if (existing && existing.fingerprint === fingerprint) {
      existing.lastUsed = this.now();
      this.entries.set(target.id, existing);
      return existing.adapter;
    }
    if (existing) void closeQuietly(existing.adapter);
    const entry: Entry = { adapter: this.factory(target, settings), fingerprint, lastUsed: this.now() };
    this.entries.set(target.id, entry);
    while (this.entries.size > this.options.maxEntries) {
      const [oldestId, oldest] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldestId);
      void closeQuietly(oldest.adapter);
    }
    return entry.adapter;
  }

  /** Closes and forgets the adapter of a connection (after it was changed or deleted). */
  async evict(id: string): Promise<void> {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    await closeQuietly(entry.adapter);
  }

  /** Closes adapters unused for longer than idleMs. */
  async sweep(): Promise<void> {
    const cutoff = this.now() - this.options.idleMs;
    const idle = [...this.entries].filter(([, e]) => e.lastUsed <= cutoff);
    for (const [id] of idle) this.entries.delete(id);
    await Promise.all(idle.map(([, e]) => closeQuietly(e.adapter)));
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(all.map((e) => closeQuietly(e.adapter)));
  }
}

/** A hash, so the password is compared without being kept a second time in the clear. */
function fingerprintOf(target: ConnectionTarget, settings: AdapterSettings): string {
  const parts = [
    target.dialect,
    target.host ?? '',
    target.port ?? '',
    target.database ?? '',
    target.user ?? '',
    target.password ?? '',
    target.ssl ? 'ssl' : '',
    target.sslMode ?? '',
    target.sslCa ?? '',
    target.filePath ?? '',
    settings.connectTimeoutMs,
    settings.poolMax,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

async function closeQuietly(adapter: DialectAdapter): Promise<void> {
  try {
    await adapter.close();
  } catch {
    // Closing is best effort: a pool whose server vanished has nothing left to release.
  }
}
