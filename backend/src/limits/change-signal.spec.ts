import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChangeSignal } from './change-signal.js';

describe('ChangeSignal', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('wakes every waiter at notify, and forgets them', async () => {
    const changes = new ChangeSignal();
    const woken: number[] = [];
    const waits = [1, 2].map((n) => changes.next(60_000, undefined, () => new Error('aborted')).then(() => woken.push(n)));
    expect(changes.waiting).toBe(2);
    changes.notify();
    await Promise.all(waits);
    expect(woken).toEqual([1, 2]);
    expect(changes.waiting).toBe(0);
  });

  it('ends a wait after waitMs without a change', async () => {
    vi.useFakeTimers();
    const changes = new ChangeSignal();
    let ended = false;
    const wait = changes.next(1000, undefined, () => new Error('aborted')).then(() => (ended = true));
    await vi.advanceTimersByTimeAsync(999);
    expect(ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await wait;
    expect(changes.waiting).toBe(0);
  });

  it('rejects with the caller\'s error when the signal aborts, at once when it already has', async () => {
    const changes = new ChangeSignal();
    const controller = new AbortController();
    const wait = changes.next(60_000, controller.signal, () => new Error('cancelled while waiting'));
    controller.abort();
    await expect(wait).rejects.toThrow('cancelled while waiting');
    await expect(changes.next(60_000, controller.signal, () => new Error('already cancelled'))).rejects.toThrow('already cancelled');
    expect(changes.waiting).toBe(0);
  });
});
