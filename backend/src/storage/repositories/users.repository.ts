import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import type { UsersTable } from '../schema.js';
import { APP_DB } from '../tokens.js';

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
}
