import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import type { SqliteGrantsTable } from '../schema.js';
import { APP_DB } from '../tokens.js';

export type SqliteGrantListing = SqliteGrantsTable & { user_email: string };

@Injectable()
export class SqliteGrantsRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  /** Returns false when the user already has this path. */
  async insert(grant: SqliteGrantsTable): Promise<boolean> {
    const result = await this.db
      .insertInto('file_grants')
      .values(grant)
      .onConflict((oc) => oc.columns(['user_id', 'path']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async pathsFor(userId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('file_grants').select('path').where('user_id', '=', userId).orderBy('path').execute();
    return rows.map((r) => r.path);
  }

  list(limit = 1000): Promise<SqliteGrantListing[]> {
    return this.db
      .selectFrom('file_grants')
      .innerJoin('users', 'users.id', 'file_grants.user_id')
      .selectAll('file_grants')
      .select('users.email as user_email')
      .orderBy('file_grants.created_at')
      .limit(limit)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('file_grants').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
