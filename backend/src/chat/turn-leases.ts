import crypto from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/app-error.js';
import { Clock } from '../common/clock.js';
import { ThreadTurnsRepository } from '../storage/repositories/thread-turns.repository.js';

/** A held turn: renewed while the turn runs, released when it ends. */
export interface TurnLease {
  release(): Promise<void>;
}

/**
 * One answer at a time per thread, whichever API process receives the message: two turns writing the
 * same thread's checkpoints at once would interleave their steps. The lease lives in app storage and
 * expires on its own if its process dies, so a crash never leaves a thread locked for long.
 */
@Injectable()
export class TurnLeases {
  static readonly TTL_MS = 60_000;
  static readonly RENEW_MS = 20_000;
  private readonly logger = new Logger(TurnLeases.name);

  constructor(
    private readonly turns: ThreadTurnsRepository,
    private readonly clock: Clock,
  ) {}

  async acquire(threadId: string): Promise<TurnLease> {
    const owner = crypto.randomUUID();
    const taken = await this.turns.acquire(threadId, owner, this.clock.iso(), this.clock.iso(TurnLeases.TTL_MS));
    if (!taken) {
      throw new AppError('THREAD_BUSY', 'This thread is still answering another message. Wait for it to finish, or stop it, then send again.');
    }
    const renew = setInterval(() => {
      this.turns.renew(threadId, owner, this.clock.iso(TurnLeases.TTL_MS)).catch((error: unknown) => this.logger.warn(`could not renew the turn lease of thread ${threadId}: ${String(error)}`));
    }, TurnLeases.RENEW_MS);
    renew.unref();
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        clearInterval(renew);
        try {
          await this.turns.release(threadId, owner);
        } catch (error) {
          // It expires by itself; the turn's answer must not fail for this.
          this.logger.warn(`could not release the turn lease of thread ${threadId}: ${String(error)}`);
        }
      },
    };
  }
}
