import type { BackendBudget, IdleConnectionSource } from './backend-budget.js';
import { ChangeSignal } from './change-signal.js';

/**
 * Sits in front of one connection pool of a user's database and keeps its physical connections within
 * the user's BackendBudget: a token is taken before the pool is asked to open a connection and given
 * back when the pool reports it closed. The pool is asked for a connection only when it has an idle
 * one or room to open one, so it never queues a request and later opens a connection on its own.
 * The pool's events drive the rest: `released` (back to the pool, or on its way out) and `closed`.
 */
export class PoolGate<C extends object> implements IdleConnectionSource {
  /** Connections holding a token: checked out, idle in the pool, or closing. */
  private readonly open = new Set<C>();
  /** Of those, the ones resting in the pool, oldest first (pools hand out the newest). */
  private idle: C[] = [];
  /** Tokens taken for connections the pool is opening now. */
  private opening = 0;
  /** Idle connections promised to checkouts the pool has not served yet. */
  private claims = 0;
  /** A connection of this pool was released or closed, or a wait for a token ended. */
  private readonly changes = new ChangeSignal();
  private readonly unregister: () => void;

  constructor(
    private readonly budget: BackendBudget,
    private readonly poolMax: number,
    /** Closes an idle connection through the pool, which then reports it closed. */
    private readonly closeIdle: (connection: C) => void,
  ) {
    this.unregister = budget.register(this);
  }

  /**
   * `connect` asks the pool for a connection. The caller bounds the wait with its own timer and signal;
   * `waitMs` (a little longer) only ends a wait nobody is listening to any more.
   */
  async checkout(connect: () => Promise<C>, options: { signal?: AbortSignal; waitMs: number }): Promise<C> {
    const { signal } = options;
    const deadline = Date.now() + options.waitMs;
    let opensNew: boolean;
    for (;;) {
      signal?.throwIfAborted();
      if (this.idle.length > this.claims) {
        this.claims++;
        opensNew = false;
        break;
      }
      if (this.open.size + this.opening < this.poolMax) {
        this.opening++;
        try {
          await this.budget.take(signal);
        } catch (error) {
          this.opening--;
          this.wake();
          throw error;
        }
        opensNew = true;
        break;
      }
      if (Date.now() >= deadline) throw new Error('gave up waiting for a pooled connection');
      await this.changes.next(deadline - Date.now(), signal, () => signal?.reason);
    }
    let connection: C;
    try {
      connection = await connect();
    } catch (error) {
      if (opensNew) {
        this.opening--;
        this.budget.release();
      } else this.claims--;
      this.wake();
      throw error;
    }
    if (opensNew) this.opening--;
    else this.claims--;
    this.idle = this.idle.filter((c) => c !== connection);
    if (this.open.has(connection)) {
      // The pool reused a connection after all (one came back while we waited for a token).
      if (opensNew) this.budget.release();
    } else {
      if (!opensNew) this.budget.force();
      this.open.add(connection);
    }
    return connection;
  }

  /** The pool took a connection back: idle now, or on its way out (`closing`). */
  released(connection: C, closing: boolean): void {
    if (!this.open.has(connection)) return;
    if (!closing) this.idle.push(connection);
    this.wake();
    this.budget.notify();
  }

  /** The pool closed a connection (idle timeout, error, discard, shed, pool end). */
  closed(connection: C): void {
    if (!this.open.delete(connection)) return;
    this.idle = this.idle.filter((c) => c !== connection);
    this.budget.release();
    this.wake();
  }

  shedIdle(): boolean {
    if (this.idle.length <= this.claims) return false;
    const oldest = this.idle.shift()!;
    this.closeIdle(oldest);
    return true;
  }

  /** After the pool has ended: gives back any token whose close the pool never reported. */
  close(): void {
    this.unregister();
    for (const _ of this.open) this.budget.release();
    this.open.clear();
    this.idle = [];
    this.wake();
  }

  private wake(): void {
    this.changes.notify();
  }
}
