import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import type { ReviewDecisionsTable } from '../schema.js';
import { APP_DB } from '../tokens.js';

@Injectable()
export class ReviewDecisionsRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  /** Records a decision unless the proposal was already decided; true when this call recorded it. */
  async claim(entry: ReviewDecisionsTable): Promise<boolean> {
    const result = await this.db
      .insertInto('review_decisions')
      .values(entry)
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  find(id: string): Promise<ReviewDecisionsTable | undefined> {
    return this.db.selectFrom('review_decisions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listByThread(userId: string, threadId: string): Promise<ReviewDecisionsTable[]> {
    return this.db
      .selectFrom('review_decisions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('thread_id', '=', threadId)
      .orderBy('created_at')
      .execute();
  }
}
