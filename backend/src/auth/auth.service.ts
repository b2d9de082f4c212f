import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthResponse, User } from '@aigis/contracts';
import { AppError } from '../common/app-error.js';
import type { AuthUser } from '../common/auth.decorators.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { AuthTokensRepository } from '../storage/repositories/auth-tokens.repository.js';
import { LoginFailuresRepository } from '../storage/repositories/login-failures.repository.js';
import { UsersRepository } from '../storage/repositories/users.repository.js';
import type { Credentials } from './auth.schemas.js';
import { PasswordHasher } from './password-hasher.js';

const TOKEN_PREFIX = 'aig_';

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly tokens: AuthTokensRepository,
    private readonly failures: LoginFailuresRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  async register({ email, password }: Credentials): Promise<AuthResponse> {
    const user = { id: crypto.randomUUID(), email, password_hash: await this.hasher.hash(password), created_at: this.clock.iso() };
    if (!(await this.users.insert(user))) throw new AppError('CONFLICT', 'An account with this email already exists. Log in instead.');
    return { token: await this.issueToken(user.id), user: { id: user.id, email } };
  }

  async login({ email, password }: Credentials, ip: string): Promise<AuthResponse> {
    await this.enforceLoginLimit(email, ip);
    const user = await this.users.findByEmail(email);
    const ok = await this.hasher.verify(password, user?.password_hash ?? (await this.hasher.dummyHash()));
    if (!user || !ok) {
      await this.failures.record(email, ip, this.clock.iso());
      throw new AppError('UNAUTHORIZED', 'Wrong email or password.');
    }
    await this.failures.clear(email);
    return { token: await this.issueToken(user.id), user: { id: user.id, email: user.email } };
  }

  /** The user of a live bearer token, or null. */
  async authenticate(token: string): Promise<AuthUser | null> {
    if (!token.startsWith(TOKEN_PREFIX)) return null;
    const row = await this.tokens.findLive(hashToken(token), this.clock.iso());
    return row ? { id: row.id, email: row.email, tokenId: row.token_id } : null;
  }

  async logout(user: AuthUser): Promise<void> {
    await this.tokens.revoke(user.tokenId, this.clock.iso());
  }

  async me(user: AuthUser): Promise<User> {
    return { id: user.id, email: user.email };
  }

  private async issueToken(userId: string): Promise<string> {
    const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
    await this.tokens.insert({
      id: crypto.randomUUID(),
      user_id: userId,
      token_hash: hashToken(token),
      created_at: this.clock.iso(),
      expires_at: this.clock.iso(this.config.TOKEN_TTL_HOURS * 3_600_000),
      revoked_at: null,
    });
    return token;
  }

  /** Per email, and (looser) per client address, so one address cannot spray many accounts. */
  private async enforceLoginLimit(email: string, ip: string): Promise<void> {
    const windowMs = this.config.LOGIN_WINDOW_MINUTES * 60_000;
    const since = this.clock.iso(-windowMs);
    const [byEmail, byIp] = await Promise.all([
      this.failures.countSince('email', email, since),
      this.failures.countSince('ip', ip, since),
    ]);
    if (byEmail >= this.config.LOGIN_MAX_FAILURES || byIp >= this.config.LOGIN_MAX_FAILURES * 4) {
      throw new AppError(
        'RATE_LIMITED',
        `Too many failed logins. Wait ${this.config.LOGIN_WINDOW_MINUTES} minutes and try again.`,
      );
    }
  }
}
