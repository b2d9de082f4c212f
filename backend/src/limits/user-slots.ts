import type { AppError } from '../common/app-error.js';

/** Gives a taken slot back; calling it again does nothing, so every path may call it (finally, close, abort). */
export type Release = () => void;

/**
 * Per-user counters of work in progress (queries, answer streams), each bounded. Taking a slot never
 * waits: over the limit it throws at once. A user's entry is removed when their count returns to 0,
 * so the map only holds users with something running.
 */
export class UserSlots {
  private readonly inUse = new Map<string, number>();

  constructor(
    readonly limit: number,
    private readonly refuse: (limit: number) => AppError,
  ) {}

  take(userId: string): Release {
    const count = this.inUse.get(userId) ?? 0;
    if (count >= this.limit) throw this.refuse(this.limit);
    this.inUse.set(userId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.inUse.get(userId) ?? 1) - 1;
      if (left > 0) this.inUse.set(userId, left);
      else this.inUse.delete(userId);
    };
  }

  count(userId: string): number {
    return this.inUse.get(userId) ?? 0;
  }

  /** Users with at least one slot taken. */
  get activeUsers(): number {
    return this.inUse.size;
  }
}
