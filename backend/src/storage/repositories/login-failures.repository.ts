import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import { APP_DB } from '../tokens.js';

/** Failed logins live in the app database so the limit holds across API processes behind a load balancer. */
@Injectable()
export class LoginFailuresRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  async record(email: string, ip: string, nowIso: string): Promise<void> {
    await this.db.insertInto('login_failures').values({ id: crypto.randomUUID(), email, ip, created_at: nowIso }).execute();
  }

  async countSince(field: 'email' | 'ip', value: string, sinceIso: string): Promise<number> {
    const row = await this.db
      .selectFrom('login_failures')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(field, '=', value)
      .where('created_at', '>', sinceIso)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async clear(email: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('email', '=', email).execute();
  }

  async deleteOlderThan(beforeIso: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('created_at', '<', beforeIso).execute();
  }
}
