import type { SchemaTable } from '@aigis/contracts';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.schema.js';
import { UserLimits } from '../limits/user-limits.service.js';
import type { ConnectionsService } from './connections.service.js';
import type { ConnectionTarget, DialectAdapter, IntrospectionResult } from './dialects/dialect-adapter.js';
import { SchemaService } from './schema.service.js';
import { ViewPolicy } from './view-policy.service.js';

const TABLE: SchemaTable = { schema: 'public', name: 'orders', kind: 'table', comment: null, columns: [], foreign_keys: [], row_estimate: 3, sample_rows: [] };

/** Connections whose adapters count introspections and finish each only when the test says so. */
function fakeConnections() {
  const runs: { id: string; finish: (result: IntrospectionResult) => void; fail: (error: Error) => void }[] = [];
  const listeners: ((id: string) => void)[] = [];
  const adapterFor = async (_userId: string, id: string) => {
    const target: ConnectionTarget = { id, dialect: 'postgres' };
    const adapter = {
      dialect: 'postgres',
      introspect: () => new Promise<IntrospectionResult>((finish, fail) => runs.push({ id, finish, fail })),
    } as unknown as DialectAdapter;
    return { adapter, target };
  };
  const connections = {
    adapterFor,
    onChange: (listener: (id: string) => void) => listeners.push(listener),
    executionLimits: () => ({ maxRows: 500, timeoutMs: 30_000 }),
  } as unknown as ConnectionsService;
  return { connections, runs, change: (id: string) => listeners.forEach((l) => l(id)) };
}

function service(env: Record<string, string> = {}) {
  const config = loadConfig({ POOL_CACHE_MAX: '2', ...env });
  const fake = fakeConnections();
  const limits = new UserLimits(config);
  return { ...fake, limits, schemas: new SchemaService(config, fake.connections, limits, new ViewPolicy(config, fake.connections)) };
}

/** Lets pending promise callbacks run (the fake adapter is created after an await). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SchemaService cache', () => {
  it('concurrent callers share one introspection, holding one query slot while it runs', async () => {
    const { schemas, runs, limits } = service();
    const callers = Array.from({ length: 5 }, () => schemas.get('u1', 'c1'));
    await settle();
    expect(runs).toHaveLength(1);
    expect(limits.usage('u1').queries).toBe(1);
    runs[0].finish({ tables: [TABLE], catalogQueries: 3 });
    const answers = await Promise.all(callers);
    expect(new Set(answers).size).toBe(1);
    expect(answers[0].tables).toEqual([TABLE]);
    expect(limits.usage('u1').queries).toBe(0);
    expect((await schemas.get('u1', 'c1')).introspected_at).toBe(answers[0].introspected_at);
    expect(runs).toHaveLength(1);
  });

  it('does not cache a failed introspection: every waiting caller gets the error, the next call tries again', async () => {
    const { schemas, runs } = service();
    const callers = [schemas.get('u1', 'c1'), schemas.get('u1', 'c1')].map((p) => p.then(() => 'ok', (e: Error) => e.message));
    await settle();
    runs[0].fail(new Error('catalog unreadable'));
    expect(await Promise.all(callers)).toEqual(['catalog unreadable', 'catalog unreadable']);
    const again = schemas.get('u1', 'c1');
    await settle();
    expect(runs).toHaveLength(2);
    runs[1].finish({ tables: [], catalogQueries: 3 });
    expect((await again).tables).toEqual([]);
  });

  it('keeps at most POOL_CACHE_MAX schemas, dropping the least recently used', async () => {
    const { schemas, runs } = service();
    for (const id of ['a', 'b', 'c']) {
      const pending = schemas.get('u1', id);
      await settle();
      runs.at(-1)!.finish({ tables: [], catalogQueries: 1 });
      await pending;
    }
    await schemas.get('u1', 'c');
    await schemas.get('u1', 'b');
    expect(runs.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    const evicted = schemas.get('u1', 'a');
    await settle();
    expect(runs.map((r) => r.id)).toEqual(['a', 'b', 'c', 'a']);
    runs[3].finish({ tables: [], catalogQueries: 1 });
    await evicted;
  });

  it('a change of the connection drops its schema; an introspection then in flight answers but is not kept', async () => {
    const { schemas, runs, change } = service();
    const before = schemas.get('u1', 'c1');
    await settle();
    change('c1');
    runs[0].finish({ tables: [TABLE], catalogQueries: 3 });
    expect((await before).tables).toEqual([TABLE]);
    const after = schemas.get('u1', 'c1');
    await settle();
    expect(runs).toHaveLength(2);
    runs[1].finish({ tables: [], catalogQueries: 3 });
    expect((await after).tables).toEqual([]);
  });

  it('refresh introspects again; SCHEMA_CACHE_TTL_S=0 keeps nothing once it is done', async () => {
    const { schemas, runs } = service({ SCHEMA_CACHE_TTL_S: '0' });
    const first = schemas.get('u1', 'c1');
    await settle();
    runs[0].finish({ tables: [], catalogQueries: 1 });
    await first;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = schemas.get('u1', 'c1');
    await settle();
    expect(runs).toHaveLength(2);
    runs[1].finish({ tables: [], catalogQueries: 1 });
    await second;
    const refreshed = schemas.get('u1', 'c1', { refresh: true });
    await settle();
    expect(runs).toHaveLength(3);
    runs[2].finish({ tables: [], catalogQueries: 1 });
    await refreshed;
  });
});
