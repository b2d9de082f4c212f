import { Inject, Injectable } from '@nestjs/common';
import { rateLimited } from '../common/rate-limited.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { type FailureStats, LoginFailuresRepository } from '../storage/repositories/login-failures.repository.js';

/** Failures a client may make across all accounts before it is slowed down, per free failure of one pair. */
const CLIENT_FACTOR = 4;

/**
 * Slows down guessing without giving anyone a way to lock an account: the wait is per (account, client)
 * pair and per client, never per account alone, so failures from one address never stop the right
 * password from another. After the free failures each further one doubles the wait (1 s, 2 s, 4 s, …,
 * at most the window); a refused attempt is not counted and says how long to wait (429 + Retry-After).
 */
@Injectable()
export class LoginThrottle {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly failures: LoginFailuresRepository,
    private readonly clock: Clock,
  ) {}

  /** Throws RATE_LIMITED when this client must wait before trying this email (or any email) again. */
  async check(email: string, client: string): Promise<void> {
    const since = this.clock.iso(-this.windowMs());
    const [pair, byClient] = await Promise.all([
      this.failures.statsSince({ client, email }, since),
      this.failures.statsSince({ client }, since),
    ]);
    const now = this.clock.now().getTime();
    const readyAt = Math.max(this.readyAt(pair, this.config.LOGIN_MAX_FAILURES), this.readyAt(byClient, this.config.LOGIN_MAX_FAILURES * CLIENT_FACTOR));
    if (readyAt > now) {
      throw rateLimited('Too many failed logins from your address.', (readyAt - now) / 1000);
    }
  }

  async recordFailure(email: string, client: string): Promise<void> {
    await this.failures.record(email, client, this.clock.iso());
  }

  async recordSuccess(email: string, client: string): Promise<void> {
    await this.failures.clearPair(email, client);
  }

  private windowMs(): number {
    return this.config.LOGIN_WINDOW_MINUTES * 60_000;
  }

  /** When the next attempt is allowed: after the free failures, 2^(excess) seconds after the last one. */
  private readyAt(stats: FailureStats, free: number): number {
    if (stats.count < free || !stats.lastAt) return 0;
    const waitMs = Math.min(2 ** Math.min(stats.count - free, 30) * 1000, this.windowMs());
    return Date.parse(stats.lastAt) + waitMs;
  }
}
