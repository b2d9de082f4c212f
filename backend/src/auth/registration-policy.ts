import { Inject, Injectable } from '@nestjs/common';
import type { RegistrationMode, RegistrationSetting } from '@aigis/contracts';
import { AppError } from '../common/app-error.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { InstanceSettingsRepository } from '../storage/repositories/instance-settings.repository.js';

const SETTING_KEY = 'registration';
const MODES: readonly RegistrationMode[] = ['open', 'invite', 'closed'];

/**
 * Who may create an account. REGISTRATION in the environment is the operator's decision and wins (the
 * admin page shows it read-only); unset, an admin's choice stored in the database applies, and without
 * one the default is `open` on the embedded default and `invite` in server mode.
 */
@Injectable()
export class RegistrationPolicy {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: InstanceSettingsRepository,
    private readonly clock: Clock,
  ) {}

  async current(): Promise<RegistrationSetting> {
    if (this.config.REGISTRATION) return { mode: this.config.REGISTRATION, source: 'environment' };
    const stored = await this.settings.get(SETTING_KEY);
    if (stored && (MODES as readonly string[]).includes(stored)) return { mode: stored as RegistrationMode, source: 'admin' };
    return { mode: this.config.mode === 'server' ? 'invite' : 'open', source: 'default' };
  }

  async set(mode: RegistrationMode): Promise<RegistrationSetting> {
    if (this.config.REGISTRATION) {
      throw new AppError('CONFLICT', `Registration is set to "${this.config.REGISTRATION}" by the REGISTRATION environment variable; change it there.`);
    }
    await this.settings.set(SETTING_KEY, mode, this.clock.iso());
    return this.current();
  }
}
