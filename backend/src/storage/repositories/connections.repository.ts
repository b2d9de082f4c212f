import { Inject, Injectable } from '@nestjs/common';
import type { Updateable } from 'kysely';
import type { AppDb } from '../database.js';
import type { ConnectionsTable } from '../schema.js';
import { APP_DB } from '../tokens.js';

/** Every read and write is scoped to the owner: another user's id simply finds nothing. */
@Injectable()
export class ConnectionsRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  listByUser(userId: string): Promise<ConnectionsTable[]> {
    return this.db.selectFrom('connections').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();
  }

  findOwned(userId: string, id: string): Promise<ConnectionsTable | undefined> {
    return this.db.selectFrom('connections').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  async countByUser(userId: string): Promise<number> {
    const row = await this.db.selectFrom('connections').select((eb) => eb.fn.countAll<number | string>().as('n')).where('user_id', '=', userId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: ConnectionsTable): Promise<void> {
    await this.db.insertInto('connections').values(row).execute();
  }

  async update(userId: string, id: string, patch: Updateable<ConnectionsTable>): Promise<boolean> {
    const result = await this.db.updateTable('connections').set(patch).where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('connections').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async updateSealed(id: string, sealed: string): Promise<void> {
    await this.db.updateTable('connections').set({ sealed_password: sealed }).where('id', '=', id).execute();
  }

  /** For key rotation: every sealed secret, across users. */
  listSealed(): Promise<Pick<ConnectionsTable, 'id' | 'user_id' | 'sealed_password'>[]> {
    return this.db.selectFrom('connections').select(['id', 'user_id', 'sealed_password']).where('sealed_password', 'is not', null).execute();
  }
}
