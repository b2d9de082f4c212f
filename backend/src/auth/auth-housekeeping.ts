import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit, Inject } from '@nestjs/common';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { AuthTokensRepository } from '../storage/repositories/auth-tokens.repository.js';
import { LoginFailuresRepository } from '../storage/repositories/login-failures.repository.js';
import { RegistrationAttemptsRepository } from '../storage/repositories/registration-attempts.repository.js';

const SWEEP_EVERY_MS = 10 * 60_000;
const DAY_MS = 86_400_000;

/**
 * Keeps the throttling tables bounded: rows older than their window no longer count, so they are
 * removed (an attacker spreading guesses over many addresses would otherwise grow them forever).
 */
@Injectable()
export class AuthHousekeeping implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(AuthHousekeeping.name);
  private timer?: NodeJS.Timeout;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly failures: LoginFailuresRepository,
    private readonly attempts: RegistrationAttemptsRepository,
    private readonly tokens: AuthTokensRepository,
    private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.sweep().catch((error) => this.logger.warn(`Sweep failed: ${(error as Error).message}`)), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async sweep(): Promise<void> {
    await this.failures.deleteOlderThan(this.clock.iso(-this.config.LOGIN_WINDOW_MINUTES * 60_000));
    await this.attempts.deleteOlderThan(this.clock.iso(-3_600_000));
    await this.tokens.deleteStale(this.clock.iso(-DAY_MS));
  }
}
