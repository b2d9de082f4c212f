import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import type { AuthTokensTable, UsersTable } from '../schema.js';
import { deleteInBatches, SWEEP_BATCH } from '../batched-delete.js';
import { APP_DB } from '../tokens.js';

@Injectable()
export class AuthTokensRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  async insert(token: AuthTokensTable): Promise<void> {
    await this.db.insertInto('auth_tokens').values(token).execute();
  }

  /** The live token (not revoked, not expired at `nowIso`) of an account that is not disabled, with its user. */
  findLive(tokenHash: string, nowIso: string): Promise<(Pick<UsersTable, 'id' | 'email' | 'role'> & { token_id: string }) | undefined> {
    return this.db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.id', 'auth_tokens.user_id')
      .select(['users.id', 'users.email', 'users.role', 'auth_tokens.id as token_id'])
      .where('auth_tokens.token_hash', '=', tokenHash)
      .where('auth_tokens.revoked_at', 'is', null)
      .where('auth_tokens.expires_at', '>', nowIso)
      .where('users.disabled_at', 'is', null)
      .executeTakeFirst();
  }

  async revoke(tokenId: string, nowIso: string): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ revoked_at: nowIso }).where('id', '=', tokenId).execute();
  }

  /** Every live token of a user (a disabled account's sessions must not come back when it is enabled). */
  async revokeAllFor(userId: string, nowIso: string): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ revoked_at: nowIso }).where('user_id', '=', userId).where('revoked_at', 'is', null).execute();
  }

  /** Expired and revoked tokens are kept a day for forensics, then removed. */
  /** Deletes tokens expired or revoked before `beforeIso` in batches of `limit`; returns how many went. */
  deleteStale(beforeIso: string, limit = SWEEP_BATCH): Promise<number> {
    return deleteInBatches(
      async (n) =>
        (
          await this.db
            .deleteFrom('auth_tokens')
            .where('id', 'in', (eb) =>
              eb
                .selectFrom('auth_tokens')
                .select('id')
                .where((w) => w.or([w('expires_at', '<', beforeIso), w('revoked_at', '<', beforeIso)]))
                .limit(n),
            )
            .executeTakeFirst()
        ).numDeletedRows,
      limit,
    );
  }
}
