import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
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
}

/**
 * One adapter (one pool) per connection id, so queries reuse connections instead of logging in each time.
 * An lru-cache bounded by `maxEntries` (the least recently used is closed beyond it) whose entries expire after
 * `idleMs` without use (an unref'd timer purges them); a changed target (host, user, password, …) replaces the
 * cached adapter. Every way out of the cache (eviction, expiry, replacement, evict, closeAll) closes the pool.
 */
export class AdapterCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly factory: NonNullable<AdapterCacheOptions['factory']>;
  /** Pools being closed; sweep, evict and closeAll wait for them. */
  private readonly closing = new Set<Promise<void>>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(options: AdapterCacheOptions) {
    this.factory = options.factory ?? createAdapter;
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries,
      ttl: options.idleMs,
      updateAgeOnGet: true,
      // Read the clock on every check (the default caches it for a millisecond, which a test clock would defeat).
      ttlResolution: 0,
      perf: { now: options.now ?? Date.now },
      dispose: (entry) => this.close(entry.adapter),
    });
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
    if (existing?.fingerprint === fingerprint) return existing.adapter;
    const entry: Entry = { adapter: this.factory(target, settings), fingerprint };
    this.entries.set(target.id, entry);
    return entry.adapter;
  }

  /** Closes and forgets the adapter of a connection (after it was changed or deleted). */
  async evict(id: string): Promise<void> {
    this.entries.delete(id);
    await this.settled();
  }

  /** Closes adapters unused for longer than idleMs. */
  async sweep(): Promise<void> {
    this.entries.purgeStale();
    await this.settled();
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    this.entries.clear();
    await this.settled();
  }

  private close(adapter: DialectAdapter): void {
    const closing = closeQuietly(adapter).finally(() => this.closing.delete(closing));
    this.closing.add(closing);
  }

  private async settled(): Promise<void> {
    await Promise.all([...this.closing]);
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
