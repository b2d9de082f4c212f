import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AuthResponse, RegistrationInfo, User } from '@aigis/contracts';
import { AppError } from '../common/app-error.js';
import { rateLimited } from '../common/rate-limited.js';
import type { AuthUser } from '../common/auth.decorators.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { AuthTokensRepository } from '../storage/repositories/auth-tokens.repository.js';
import { InstanceSettingsRepository } from '../storage/repositories/instance-settings.repository.js';
import { InvitesRepository } from '../storage/repositories/invites.repository.js';
import { RegistrationAttemptsRepository } from '../storage/repositories/registration-attempts.repository.js';
import { UsersRepository } from '../storage/repositories/users.repository.js';
import type { UserRole } from '../storage/schema.js';
import type { LoginInput, RegisterInput } from '@aigis/contracts';
import { LoginThrottle } from './login-throttle.js';
import { PasswordHasher } from './password-hasher.js';
import { RegistrationPolicy } from './registration-policy.js';

const TOKEN_PREFIX = 'aig_';
const BOOTSTRAP_KEY = 'bootstrap_admin';
const HOUR_MS = 3_600_000;

/** SHA-256 of a secret we hand out (token, invite): only the hash is stored. */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

@Injectable()
export class AuthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly tokens: AuthTokensRepository,
    private readonly invites: InvitesRepository,
    private readonly settings: InstanceSettingsRepository,
    private readonly attempts: RegistrationAttemptsRepository,
    private readonly throttle: LoginThrottle,
    private readonly policy: RegistrationPolicy,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  async registrationInfo(): Promise<RegistrationInfo> {
    return { mode: (await this.policy.current()).mode, first_account: !(await this.users.any()) };
  }

  /**
   * Creates the account when the email is free; when it is taken, does the same work (the password is
   * hashed either way) and answers the same, so neither the status, the body nor the time tells an
   * attacker which emails have accounts. Returns the new user's id, or null, for the caller's follow-ups.
   */
  async register({ email, password, invite }: RegisterInput, client: string): Promise<string | null> {
    await this.limitRegistrations(client);
    const id = crypto.randomUUID();
    const now = this.clock.iso();
    // The first account sets the instance up whatever the mode; a primary-key claim makes it exactly one.
    const isFirst = !(await this.users.any()) && (await this.settings.claim(BOOTSTRAP_KEY, id, now));
    const inviteId = isFirst ? null : await this.admit(invite);
    const role: UserRole = isFirst ? 'admin' : 'member';
    const created = await this.users.insert({ id, email, password_hash: await this.hasher.hash(password), role, disabled_at: null, created_at: now });
    if (!created) {
      if (isFirst) await this.settings.delete(BOOTSTRAP_KEY);
      return null;
    }
    if (inviteId) await this.invites.setUsedBy(inviteId, id);
    return id;
  }

  async login({ email, password }: LoginInput, client: string): Promise<AuthResponse> {
    await this.throttle.check(email, client);
    const user = await this.users.findByEmail(email);
    const ok = await this.hasher.verify(password, user?.password_hash ?? (await this.hasher.dummyHash()));
    if (!user || !ok) {
      await this.throttle.recordFailure(email, client);
      throw new AppError('UNAUTHORIZED', 'Wrong email or password.');
    }
    // Said only to someone who knows the password.
    if (user.disabled_at) throw new AppError('ACCOUNT_DISABLED', 'This account has been disabled by an admin.');
    await this.throttle.recordSuccess(email, client);
    return { token: await this.issueToken(user.id), user: { id: user.id, email: user.email, role: user.role } };
  }

  /** The user of a live token whose account is not disabled, or null. */
  async authenticate(token: string): Promise<AuthUser | null> {
    if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
    const row = await this.tokens.findLive(hashToken(token), this.clock.iso());
    return row ? { id: row.id, email: row.email, role: row.role, tokenId: row.token_id } : null;
  }

  async logout(user: AuthUser): Promise<void> {
    await this.tokens.revoke(user.tokenId, this.clock.iso());
  }

  me(user: AuthUser): User {
    return { id: user.id, email: user.email, role: user.role };
  }

  tokenTtlMs(): number {
    return this.config.TOKEN_TTL_HOURS * HOUR_MS;
  }

  /** Whether the mode lets this registration in; an invite is used up by the attempt (the id is returned). */
  private async admit(invite: string | undefined): Promise<string | null> {
    const { mode } = await this.policy.current();
    if (mode === 'open') return null;
    if (mode === 'closed') throw new AppError('REGISTRATION_CLOSED', 'Registration is closed on this Aigis. Ask an admin for an account.');
    if (!invite) throw new AppError('INVITE_REQUIRED', 'This Aigis is invite-only: open the invite link an admin gave you.');
    const inviteId = await this.invites.consume(hashToken(invite), this.clock.iso());
    if (!inviteId) throw new AppError('INVITE_INVALID', 'This invite link is not valid: it may have expired, been used or been revoked. Ask an admin for a new one.');
    return inviteId;
  }

  private async limitRegistrations(client: string): Promise<void> {
    const { count, oldestAt } = await this.attempts.since(client, this.clock.iso(-HOUR_MS));
    if (count >= this.config.REGISTRATIONS_PER_HOUR) {
      const waitMs = (oldestAt ? Date.parse(oldestAt) + HOUR_MS : this.clock.now().getTime() + HOUR_MS) - this.clock.now().getTime();
      throw rateLimited('Too many registrations from your address.', waitMs / 1000);
    }
    await this.attempts.record(client, this.clock.iso());
  }

  private async issueToken(userId: string): Promise<string> {
    const token = TOKEN_PREFIX + crypto.randomBytes(32).toString('base64url');
    await this.tokens.insert({
      id: crypto.randomUUID(),
      user_id: userId,
      token_hash: hashToken(token),
      created_at: this.clock.iso(),
      expires_at: this.clock.iso(this.tokenTtlMs()),
      revoked_at: null,
    });
    return token;
  }
}
