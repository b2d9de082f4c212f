import { AppError } from '../common/app-error.js';
import { rateLimited } from '../common/rate-limited.js';
import { ChangeSignal } from './change-signal.js';

/** A pool of the user's that can close one of its idle connections to make room for another pool. */
export interface IdleConnectionSource {
  /** Starts closing one idle connection; its token comes back when it has closed. False when none is idle. */
  shedIdle(): boolean;
}

/** Seconds a client is told to wait when all of a user's connections stay busy. */
export const BACKEND_RETRY_AFTER_S = 2;

/**
 * How many database connections (server backends) one user holds at once, across all their saved
 * connections: one token per open physical connection, idle ones included, taken before the
 * connection is opened and given back when it has closed. When every token is taken, an idle
 * connection of one of the user's pools is closed to make room; when all are busy, the request
 * waits up to `waitMs` and then answers RATE_LIMITED.
 */
export class BackendBudget {
  private open = 0;
  private readonly sources = new Set<IdleConnectionSource>();
  private readonly changes = new ChangeSignal();

  constructor(
    readonly limit: number,
    private readonly waitMs: number,
  ) {}

  /** Connections open (or being opened) now. */
  get inUse(): number {
    return this.open;
  }

  /** Nothing open, nothing waiting and no pool registered: the budget can be forgotten. */
  get unused(): boolean {
    return this.open === 0 && this.sources.size === 0 && this.changes.waiting === 0;
  }

  register(source: IdleConnectionSource): () => void {
    this.sources.add(source);
    return () => {
      this.sources.delete(source);
    };
  }

  /** Takes a token for a connection about to be opened (see the class comment). */
  async take(signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      if (this.open < this.limit) {
        this.open++;
        return;
      }
      // At most one idle connection is closed per wake-up: its token returns when it has closed.
      for (const source of this.sources) if (source.shedIdle()) break;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw rateLimited(`All ${this.limit} database connections you may hold at once are busy.`, BACKEND_RETRY_AFTER_S);
      }
      await this.changes.next(left, signal, () => new AppError('QUERY_CANCELLED', 'the request was cancelled while it waited for a database connection'));
    }
  }

  /** A connection the pool opened without asking (it should not happen): counted, so its close balances it. */
  force(): void {
    this.open++;
  }

  release(): void {
    this.open = Math.max(0, this.open - 1);
    this.notify();
  }

  /** Wakes waiting requests: a token came back or a connection became idle (and can be closed). */
  notify(): void {
    this.changes.notify();
  }
}
