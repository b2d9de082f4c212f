import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AdminUser, CreatedInvite, InstanceSettings, Invite, RegistrationMode, SqliteGrant } from '@aigis/contracts';
import { AppError } from '../common/app-error.js';
import type { AuthUser } from '../common/auth.decorators.js';
import { Clock } from '../common/clock.js';
import { appOwnFiles } from '../config/app-files.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { relativeToRoot, resolveGrantablePath } from '../connections/sqlite-files.js';
import { AuthTokensRepository } from '../storage/repositories/auth-tokens.repository.js';
import { type InviteListing, InvitesRepository } from '../storage/repositories/invites.repository.js';
import { SqliteGrantsRepository } from '../storage/repositories/sqlite-grants.repository.js';
import { type UserListing, UsersRepository } from '../storage/repositories/users.repository.js';
import type { CreateGrantInput, CreateInviteInput, UpdateUserInput } from '@aigis/contracts';
import { hashToken } from './auth.service.js';
import { RegistrationPolicy } from './registration-policy.js';

const INVITE_PREFIX = 'inv_';
const DEFAULT_INVITE_HOURS = 72;

/** What an admin sees and changes: accounts, invites, the registration mode and SQLite grants. */
@Injectable()
export class AdminService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersRepository,
    private readonly tokens: AuthTokensRepository,
    private readonly invites: InvitesRepository,
    private readonly grants: SqliteGrantsRepository,
    private readonly policy: RegistrationPolicy,
    private readonly clock: Clock,
  ) {}

  async listUsers(): Promise<AdminUser[]> {
    return (await this.users.list()).map(toAdminUser);
  }

  /**
   * An admin cannot change their own role or disable themselves, so the acting admin always remains:
   * the instance can never be left without an active admin. Disabling revokes every token at once.
   */
  async updateUser(actor: AuthUser, id: string, input: UpdateUserInput): Promise<AdminUser> {
    if (id === actor.id) throw new AppError('CONFLICT', 'You cannot change your own role or disable yourself; ask another admin.');
    const now = this.clock.iso();
    const changes: { role?: 'admin' | 'member'; disabled_at?: string | null } = {};
    if (input.role) changes.role = input.role;
    if (input.disabled !== undefined) changes.disabled_at = input.disabled ? now : null;
    if (!(await this.users.update(id, changes))) throw AppError.notFound('User');
    if (input.disabled) await this.tokens.revokeAllFor(id, now);
    const user = await this.users.findById(id);
    return toAdminUser(user!);
  }

  async listInvites(): Promise<Invite[]> {
    const now = this.clock.iso();
    return (await this.invites.list()).map((row) => toInvite(row, now));
  }

  async createInvite(actor: AuthUser, input: CreateInviteInput): Promise<CreatedInvite> {
    const token = INVITE_PREFIX + crypto.randomBytes(24).toString('base64url');
    const now = this.clock.iso();
    const row = {
      id: crypto.randomUUID(),
      token_hash: hashToken(token),
      created_by: actor.id,
      created_at: now,
      expires_at: this.clock.iso((input.expires_in_hours ?? DEFAULT_INVITE_HOURS) * 3_600_000),
      used_at: null,
      used_by: null,
      revoked_at: null,
    };
    await this.invites.insert(row);
    return { invite: toInvite({ ...row, used_by_email: null }, now), token, path: `/register?invite=${encodeURIComponent(token)}` };
  }

  async revokeInvite(id: string): Promise<void> {
    if (!(await this.invites.revoke(id, this.clock.iso()))) throw AppError.notFound('Invite');
  }

  async settings(): Promise<InstanceSettings> {
    const c = this.config;
    return {
      registration: await this.policy.current(),
      mode: c.mode,
      trust_proxy: c.TRUST_PROXY,
      sqlite_root: c.sqliteRoot,
      limits: {
        token_ttl_hours: c.TOKEN_TTL_HOURS,
        login_max_failures: c.LOGIN_MAX_FAILURES,
        login_window_minutes: c.LOGIN_WINDOW_MINUTES,
        registrations_per_hour: c.REGISTRATIONS_PER_HOUR,
        row_limit: c.ROW_LIMIT,
        row_limit_max: c.ROW_LIMIT_MAX,
        statement_timeout_ms: c.STATEMENT_TIMEOUT_MS,
      },
    };
  }

  async setRegistration(mode: RegistrationMode): Promise<InstanceSettings> {
    await this.policy.set(mode);
    return this.settings();
  }

  listGrants(): Promise<SqliteGrant[]> {
    return this.grants.list().then((rows) => rows.map(({ id, user_id, user_email, path: p, created_at }) => ({ id, user_id, user_email, path: p, created_at })));
  }

  /** A file or folder under SQLITE_ROOT (never an app file), stored relative to the root. */
  async createGrant(actor: AuthUser, input: CreateGrantInput): Promise<SqliteGrant> {
    const user = await this.users.findById(input.user_id);
    if (!user) throw AppError.notFound('User');
    const absolute = resolveGrantablePath(this.config.sqliteRoot, input.path, appOwnFiles(this.config));
    const row = { id: crypto.randomUUID(), user_id: user.id, path: relativeToRoot(this.config.sqliteRoot, absolute), created_by: actor.id, created_at: this.clock.iso() };
    if (!(await this.grants.insert(row))) throw new AppError('CONFLICT', `${user.email} already has ${row.path}.`);
    return { id: row.id, user_id: row.user_id, user_email: user.email, path: row.path, created_at: row.created_at };
  }

  async deleteGrant(id: string): Promise<void> {
    if (!(await this.grants.delete(id))) throw AppError.notFound('Grant');
  }
}

function toAdminUser(row: UserListing): AdminUser {
  return { id: row.id, email: row.email, role: row.role, disabled: row.disabled_at !== null, created_at: row.created_at };
}

function toInvite(row: InviteListing, nowIso: string): Invite {
  const status: Invite['status'] = row.used_at ? 'used' : row.revoked_at ? 'revoked' : row.expires_at <= nowIso ? 'expired' : 'pending';
  return { id: row.id, status, created_at: row.created_at, expires_at: row.expires_at, used_at: row.used_at, used_by_email: row.used_by_email };
}
