import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BackendBudget } from './backend-budget.js';
import { PoolGate } from './pool-gate.js';

/**
 * A pool that behaves like pg-pool and mysql2 where the gate relies on it: it hands out the newest idle
 * connection, opens one when it has none idle and room, and reports releases and closes as events.
 */
class ScriptedPool extends EventEmitter {
  idle: object[] = [];
  all = new Set<object>();
  opened = 0;
  constructor(private readonly max: number) {
    super();
  }
  async connect(): Promise<object> {
    await Promise.resolve();
    const reused = this.idle.pop();
    if (reused) return reused;
    if (this.all.size >= this.max) throw new Error('the pool would have queued: the gate must not ask then');
    const connection = { n: ++this.opened };
    this.all.add(connection);
    return connection;
  }
  release(connection: object, destroy = false): void {
    if (destroy) return this.close(connection);
    this.idle.push(connection);
    this.emit('release', connection);
  }
  close(connection: object): void {
    this.idle = this.idle.filter((c) => c !== connection);
    if (!this.all.delete(connection)) return;
    setImmediate(() => this.emit('remove', connection));
  }
}

function gated(budget: BackendBudget, max: number) {
  const pool = new ScriptedPool(max);
  const gate = new PoolGate<object>(budget, max, (c) => pool.close(c));
  pool.on('release', (c) => gate.released(c, false));
  pool.on('remove', (c) => gate.closed(c));
  const checkout = (signal?: AbortSignal) => gate.checkout(() => pool.connect(), { signal, waitMs: 5000 });
  return { pool, gate, checkout };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('PoolGate and BackendBudget', () => {
  it('keeps a user’s open connections within the budget across pools, closing idle ones to make room', async () => {
    const budget = new BackendBudget(4, 500);
    const a = gated(budget, 3);
    const b = gated(budget, 3);
    const held = await Promise.all([a.checkout(), a.checkout(), a.checkout()]);
    held.forEach((c) => a.pool.release(c));
    expect(budget.inUse).toBe(3);
    // Pool b needs three: one token is free, two come from closing a's idle connections.
    const onB = await Promise.all([b.checkout(), b.checkout(), b.checkout()]);
    expect(onB).toHaveLength(3);
    expect(a.pool.all.size + b.pool.all.size).toBeLessThanOrEqual(4);
    expect(budget.inUse).toBeLessThanOrEqual(4);
    onB.forEach((c) => b.pool.release(c));
  });

  it('answers RATE_LIMITED when every connection of the user stays busy, and the tokens all come back', async () => {
    const budget = new BackendBudget(2, 200);
    const a = gated(budget, 2);
    const b = gated(budget, 2);
    const busy = await Promise.all([a.checkout(), a.checkout()]);
    const started = Date.now();
    await expect(b.checkout()).rejects.toMatchObject({ code: 'RATE_LIMITED', details: { retry_after_s: 2 } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    // A waiting request goes on as soon as one is given back: the idle one in pool a is closed for it.
    const waiting = b.checkout();
    await tick();
    a.pool.release(busy[0]);
    // The waiting request got a new connection of pool b, not the one given back to pool a.
    const got = await waiting;
    expect(b.pool.all.has(got as object)).toBe(true);
    expect(got).not.toBe(busy[0]);
    expect([a.pool.all.size, b.pool.all.size]).toEqual([1, 1]);
    a.pool.close(busy[1]);
    await tick();
    expect(budget.inUse).toBe(1);
  });

  it('gives the token back when a checkout fails, is aborted, or the pool closes', async () => {
    const budget = new BackendBudget(1, 1000);
    const a = gated(budget, 1);
    const failing = new PoolGate<object>(budget, 1, () => undefined);
    await expect(failing.checkout(() => Promise.reject(new Error('server down')), { waitMs: 1000 })).rejects.toThrow('server down');
    expect(budget.inUse).toBe(0);

    const held = await a.checkout();
    const b = gated(budget, 1);
    const controller = new AbortController();
    const aborted = b.checkout(controller.signal);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'QUERY_CANCELLED' });
    expect(budget.inUse).toBe(1);
    a.pool.close(held);
    await tick();
    expect(budget.inUse).toBe(0);

    await b.checkout();
    b.gate.close();
    failing.close();
    a.gate.close();
    expect(budget.inUse).toBe(0);
    expect(budget.unused).toBe(true);
  });

  it('never asks a full pool for a connection: the request waits for one to come back', async () => {
    const budget = new BackendBudget(10, 1000);
    const a = gated(budget, 2);
    const [first] = await Promise.all([a.checkout(), a.checkout()]);
    const third = a.checkout();
    await tick();
    a.pool.release(first);
    await expect(third).resolves.toBe(first);
    expect(a.pool.opened).toBe(2);
  });
});
