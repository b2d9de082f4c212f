import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StallWatchdog } from './stall-watchdog.js';

describe('StallWatchdog', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] }));
  afterEach(() => vi.useRealTimers());

  it('stops a run that goes quiet, counting from its last activity', () => {
    const watchdog = new StallWatchdog(new AbortController().signal, { stallMs: 1000, maxTurnMs: 60_000 });
    vi.advanceTimersByTime(800);
    watchdog.touch();
    vi.advanceTimersByTime(900);
    expect(watchdog.signal.aborted).toBe(false);
    vi.advanceTimersByTime(200);
    expect(watchdog.signal.aborted).toBe(true);
    expect(watchdog).toMatchObject({ stalled: true, overran: false });
    watchdog.dispose();
  });

  it('ends a run that never stops talking at the turn limit', () => {
    const watchdog = new StallWatchdog(new AbortController().signal, { stallMs: 1000, maxTurnMs: 5000 });
    for (let t = 0; t < 4500; t += 500) {
      watchdog.touch();
      vi.advanceTimersByTime(500);
    }
    watchdog.touch();
    vi.advanceTimersByTime(400);
    expect(watchdog.signal.aborted).toBe(false);
    vi.advanceTimersByTime(200);
    expect(watchdog.signal.aborted).toBe(true);
    expect(watchdog).toMatchObject({ stalled: false, overran: true });
    watchdog.dispose();
  });

  it("passes the caller's abort through, and once disposed neither fires nor listens", () => {
    const caller = new AbortController();
    const watchdog = new StallWatchdog(caller.signal, { stallMs: 1000, maxTurnMs: 5000 });
    caller.abort(new Error('client disconnected'));
    expect(watchdog.signal.reason).toEqual(new Error('client disconnected'));
    expect(watchdog).toMatchObject({ stalled: false, overran: false });

    const quiet = new StallWatchdog(new AbortController().signal, { stallMs: 1000, maxTurnMs: 5000 });
    quiet.dispose();
    vi.advanceTimersByTime(10_000);
    expect(quiet.signal.aborted).toBe(false);
  });
});
