import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import type { UserRole, UsersTable } from '../schema.js';
import { APP_DB } from '../tokens.js';

export type UserListing = Omit<UsersTable, 'password_hash'>;

@Injectable()
export class UsersRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  findByEmail(email: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findById(id: string): Promise<UsersTable | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Returns false when the email is already taken (unique constraint), so callers need no pre-check race. */
  async insert(user: UsersTable): Promise<boolean> {
    const result = await this.db
      .insertInto('users')
      .values(user)
      .onConflict((oc) => oc.column('email').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async any(): Promise<boolean> {
    return (await this.db.selectFrom('users').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  /** Every account, oldest first, bounded (an admin page, not an export). */
  list(limit = 1000): Promise<UserListing[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'role', 'disabled_at', 'created_at'])
      .orderBy('created_at')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  async update(id: string, changes: { role?: UserRole; disabled_at?: string | null }): Promise<boolean> {
    const result = await this.db.updateTable('users').set(changes).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
