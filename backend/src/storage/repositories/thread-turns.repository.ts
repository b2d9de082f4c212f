import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import { APP_DB } from '../tokens.js';

@Injectable()
export class ThreadTurnsRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  /** Takes the thread's lease for `owner` unless another live one holds it; true when taken. */
  async acquire(threadId: string, owner: string, now: string, expiresAt: string): Promise<boolean> {
    const result = await this.db
      .insertInto('thread_turns')
      .values({ thread_id: threadId, owner, expires_at: expiresAt })
      .onConflict((oc) => oc.column('thread_id').doUpdateSet({ owner, expires_at: expiresAt }).where('thread_turns.expires_at', '<', now))
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Extends a lease its owner still holds; false when it was lost (expired and taken by another turn). */
  async renew(threadId: string, owner: string, expiresAt: string): Promise<boolean> {
    const result = await this.db.updateTable('thread_turns').set({ expires_at: expiresAt }).where('thread_id', '=', threadId).where('owner', '=', owner).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async release(threadId: string, owner: string): Promise<void> {
    await this.db.deleteFrom('thread_turns').where('thread_id', '=', threadId).where('owner', '=', owner).execute();
  }
}
