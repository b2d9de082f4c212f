/**
 * Wakes whoever waits for a change of shared state (a connection token came back, a pooled connection was
 * released or closed). Waiters re-check the state themselves: a wake-up is a hint, not a hand-over.
 */
export class ChangeSignal {
  private readonly waiters = new Set<() => void>();

  /** Requests waiting now. */
  get waiting(): number {
    return this.waiters.size;
  }

  notify(): void {
    for (const wake of [...this.waiters]) wake();
  }

  /**
   * Resolves at the next notify() or after `waitMs`, whichever comes first; rejects with `abortError()` when the
   * signal aborts (at once if it already has).
   */
  next(waitMs: number, signal: AbortSignal | undefined, abortError: () => unknown): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        reject(abortError());
      };
      const timer = setTimeout(done, waitMs);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.add(done);
    });
  }
}
