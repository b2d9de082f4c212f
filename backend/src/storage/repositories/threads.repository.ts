import { Inject, Injectable } from '@nestjs/common';
import type { Updateable } from 'kysely';
import type { AppDb } from '../database.js';
import type { ThreadsTable } from '../schema.js';
import { APP_DB } from '../tokens.js';

@Injectable()
export class ThreadsRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  /** Newest activity first. */
  listByUser(userId: string): Promise<ThreadsTable[]> {
    return this.db.selectFrom('threads').selectAll().where('user_id', '=', userId).orderBy('updated_at', 'desc').orderBy('id', 'desc').execute();
  }

  findOwned(userId: string, id: string): Promise<ThreadsTable | undefined> {
    return this.db.selectFrom('threads').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  async insert(row: ThreadsTable): Promise<void> {
    await this.db.insertInto('threads').values(row).execute();
  }

  async update(userId: string, id: string, patch: Updateable<ThreadsTable>): Promise<boolean> {
    const result = await this.db.updateTable('threads').set(patch).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('threads').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
