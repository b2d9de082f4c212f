import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import type { InvitesTable } from '../schema.js';
import { APP_DB } from '../tokens.js';

export type InviteListing = Omit<InvitesTable, 'token_hash'> & { used_by_email: string | null };

@Injectable()
export class InvitesRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  async insert(invite: InvitesTable): Promise<void> {
    await this.db.insertInto('invites').values(invite).execute();
  }

  /** Newest first, bounded. */
  list(limit = 500): Promise<InviteListing[]> {
    return this.db
      .selectFrom('invites')
      .leftJoin('users', 'users.id', 'invites.used_by')
      .select([
        'invites.id',
        'invites.created_by',
        'invites.created_at',
        'invites.expires_at',
        'invites.used_at',
        'invites.used_by',
        'invites.revoked_at',
        'users.email as used_by_email',
      ])
      .orderBy('invites.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  /**
   * Marks a live invite used in one conditional UPDATE, so two registrations racing with the same link
   * cannot both succeed. Returns the invite id, or null when it is unknown, used, revoked or expired.
   */
  async consume(tokenHash: string, nowIso: string): Promise<string | null> {
    const row = await this.db.selectFrom('invites').select('id').where('token_hash', '=', tokenHash).executeTakeFirst();
    if (!row) return null;
    const result = await this.db
      .updateTable('invites')
      .set({ used_at: nowIso })
      .where('id', '=', row.id)
      .where('used_at', 'is', null)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', nowIso)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? row.id : null;
  }

  async setUsedBy(id: string, userId: string): Promise<void> {
    await this.db.updateTable('invites').set({ used_by: userId }).where('id', '=', id).execute();
  }

  /** Revokes an invite that is still unused; false when there is no such invite. */
  async revoke(id: string, nowIso: string): Promise<boolean> {
    const result = await this.db
      .updateTable('invites')
      .set({ revoked_at: nowIso })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) > 0) return true;
    return (await this.db.selectFrom('invites').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
  }
}
