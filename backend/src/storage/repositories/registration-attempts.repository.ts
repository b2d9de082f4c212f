import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import { deleteCreatedBefore, SWEEP_BATCH } from '../batched-delete.js';
import { APP_DB } from '../tokens.js';

/** Registration attempts per client, in the app database so the limit holds across API processes. */
@Injectable()
export class RegistrationAttemptsRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  async record(client: string, nowIso: string): Promise<void> {
    await this.db.insertInto('registration_attempts').values({ id: crypto.randomUUID(), client, created_at: nowIso }).execute();
  }

  /** Attempts since `sinceIso` and the oldest of them (when the window frees a slot). */
  async since(client: string, sinceIso: string): Promise<{ count: number; oldestAt: string | null }> {
    const row = await this.db
      .selectFrom('registration_attempts')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_at').as('oldest')])
      .where('client', '=', client)
      .where('created_at', '>', sinceIso)
      .executeTakeFirst();
    return { count: Number(row?.n ?? 0), oldestAt: (row?.oldest as string | null) ?? null };
  }

  /** Deletes attempts older than `beforeIso` (in batches of `limit`); returns how many went. */
  deleteOlderThan(beforeIso: string, limit = SWEEP_BATCH): Promise<number> {
    return deleteCreatedBefore(this.db, 'registration_attempts', beforeIso, limit);
  }
}
