import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdapterCache } from '../src/connections/adapter-cache.js';
import type { ConnectionTarget, DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';

const SETTINGS = { connectTimeoutMs: 5000, poolMax: 2 };

/** Records what the cache creates and closes; the adapters themselves do nothing. */
function recordingFactory() {
  const created: { id: string; password: string | null | undefined; closed: boolean }[] = [];
  const factory = (target: ConnectionTarget): DialectAdapter => {
    const record = { id: target.id, password: target.password, closed: false };
    created.push(record);
    return {
      dialect: target.dialect,
      executeReadOnly: async () => ({ columns: [], rows: [], truncated: false, sqlExecuted: '' }),
      explain: async () => ({ cost: null, rows: null, scans: [] }),
      probe: async () => ({ serverVersion: 'fake', readOnlyRole: true, elevatedPrivileges: [], warnings: [] }),
      introspect: async () => ({ tables: [], catalogQueries: 0 }),
      close: async () => {
        record.closed = true;
      },
    };
  };
  return { created, factory };
}

function target(id: string, password = 'pw'): ConnectionTarget {
  return { id, dialect: 'postgres', host: 'db.example', port: 5432, database: 'shop', user: 'u', password };
}

describe('AdapterCache', () => {
  it('reuses the adapter of a connection while its target stays the same', async () => {
    const { created, factory } = recordingFactory();
    const cache = new AdapterCache({ maxEntries: 10, idleMs: 60_000, factory });
    const first = cache.get(target('a'), SETTINGS);
    expect(cache.get(target('a'), SETTINGS)).toBe(first);
    expect(created).toHaveLength(1);
    await cache.closeAll();
  });

  it('replaces and closes the adapter when the target changes (new password, new settings)', async () => {
    const { created, factory } = recordingFactory();
    const cache = new AdapterCache({ maxEntries: 10, idleMs: 60_000, factory });
    const old = cache.get(target('a', 'old'), SETTINGS);
    const renewed = cache.get(target('a', 'new'), SETTINGS);
    expect(renewed).not.toBe(old);
    expect(created.map((c) => [c.password, c.closed])).toEqual([
      ['old', true],
      ['new', false],
    ]);
    expect(cache.get(target('a', 'new'), { ...SETTINGS, poolMax: 9 })).not.toBe(renewed);
    expect(created[1].closed).toBe(true);
    await cache.closeAll();
  });

  it('keeps at most maxEntries, closing the least recently used', async () => {
    const { created, factory } = recordingFactory();
    const cache = new AdapterCache({ maxEntries: 2, idleMs: 60_000, factory });
    cache.get(target('a'), SETTINGS);
    cache.get(target('b'), SETTINGS);
    cache.get(target('a'), SETTINGS); // a is now more recent than b
    cache.get(target('c'), SETTINGS);
    expect(cache.size).toBe(2);
    expect(created.filter((c) => c.closed).map((c) => c.id)).toEqual(['b']);
    await cache.closeAll();
    expect(created.every((c) => c.closed)).toBe(true);
    expect(cache.size).toBe(0);
  });

  it('closes adapters idle longer than idleMs, and only those', async () => {
    let now = 1_000_000;
    const { created, factory } = recordingFactory();
    const cache = new AdapterCache({ maxEntries: 10, idleMs: 1000, factory, now: () => now });
    cache.get(target('idle'), SETTINGS);
    now += 600;
    cache.get(target('busy'), SETTINGS);
    now += 600;
    cache.get(target('busy'), SETTINGS);
    await cache.sweep();
    expect(created.map((c) => [c.id, c.closed])).toEqual([
      ['idle', true],
      ['busy', false],
    ]);
    expect(cache.size).toBe(1);
    await cache.closeAll();
  });

  it('sweeps by itself on a timer', async () => {
    const { created, factory } = recordingFactory();
    const cache = new AdapterCache({ maxEntries: 10, idleMs: 300, factory });
    cache.get(target('a'), SETTINGS);
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(created[0].closed).toBe(true);
    expect(cache.size).toBe(0);
    await cache.closeAll();
  });

  it('evict closes the adapter of a changed or deleted connection', async () => {
    const { created, factory } = recordingFactory();
    const cache = new AdapterCache({ maxEntries: 10, idleMs: 60_000, factory });
    cache.get(target('a'), SETTINGS);
    await cache.evict('a');
    await cache.evict('never-cached');
    expect(created[0].closed).toBe(true);
    expect(cache.size).toBe(0);
    await cache.closeAll();
  });
});

describe('AdapterCache with a real pool', () => {
  let db: PgDatabase;
  beforeAll(async () => {
    db = await createPgDatabase('cache');
  });
  afterAll(async () => {
    await db?.drop();
  });

  async function openConnections(): Promise<number> {
    const [row] = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND application_name = 'aigis'`,
      [db.name],
    );
    return row.n;
  }

  it('evicting closes the pool: its connections leave the server', async () => {
    const cache = new AdapterCache({ maxEntries: 10, idleMs: 60_000 });
    const adapter = cache.get(db.target({ id: 'real' }), SETTINGS);
    await Promise.all([1, 2].map(() => adapter.executeReadOnly('SELECT pg_sleep(0.1)', { maxRows: 1, timeoutMs: 5000 })));
    expect(await openConnections()).toBe(2);
    await cache.evict('real');
    for (let i = 0; i < 20 && (await openConnections()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await openConnections()).toBe(0);
    await cache.closeAll();
  });

  it('a pool pushed out of the cache (one entry too many) or expired is closed: its connections leave the server', async () => {
    let now = 1_000_000;
    const cache = new AdapterCache({ maxEntries: 1, idleMs: 60_000, now: () => now });
    const first = cache.get(db.target({ id: 'first' }), SETTINGS);
    await first.executeReadOnly('SELECT 1', { maxRows: 1, timeoutMs: 5000 });
    expect(await openConnections()).toBe(1);
    const second = cache.get(db.target({ id: 'second' }), SETTINGS);
    await cache.sweep(); // waits for the pools being closed
    expect(cache.size).toBe(1);
    await expect(first.executeReadOnly('SELECT 1', { maxRows: 1, timeoutMs: 5000 })).rejects.toMatchObject({ code: 'CONNECTION_FAILED' });
    await second.executeReadOnly('SELECT 1', { maxRows: 1, timeoutMs: 5000 });
    for (let i = 0; i < 20 && (await openConnections()) > 1; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await openConnections()).toBe(1);
    now += 60_001;
    await cache.sweep();
    expect(cache.size).toBe(0);
    for (let i = 0; i < 20 && (await openConnections()) > 0; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await openConnections()).toBe(0);
    await cache.closeAll();
  });
});
