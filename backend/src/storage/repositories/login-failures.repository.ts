import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import { deleteCreatedBefore, SWEEP_BATCH } from '../batched-delete.js';
import { APP_DB } from '../tokens.js';

/** How many failures, and when the last one was. */
export interface FailureStats {
  count: number;
  lastAt: string | null;
}

/** Failed logins live in the app database so the limit holds across API processes behind a load balancer. */
@Injectable()
export class LoginFailuresRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  async record(email: string, client: string, nowIso: string): Promise<void> {
    await this.db.insertInto('login_failures').values({ id: crypto.randomUUID(), email, ip: client, created_at: nowIso }).execute();
  }

  /** Failures since `sinceIso` for one (account, client) pair, or for a client across every account. */
  async statsSince(where: { client: string; email?: string }, sinceIso: string): Promise<FailureStats> {
    let query = this.db
      .selectFrom('login_failures')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('created_at').as('last')])
      .where('ip', '=', where.client)
      .where('created_at', '>', sinceIso);
    if (where.email !== undefined) query = query.where('email', '=', where.email);
    const row = await query.executeTakeFirst();
    return { count: Number(row?.n ?? 0), lastAt: (row?.last as string | null) ?? null };
  }

  /** A successful login forgives that pair only: logging into one's own account must not reset a client's count. */
  async clearPair(email: string, client: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('email', '=', email).where('ip', '=', client).execute();
  }

  /** Deletes failures older than `beforeIso` (in batches of `limit`); returns how many went. */
  deleteOlderThan(beforeIso: string, limit = SWEEP_BATCH): Promise<number> {
    return deleteCreatedBefore(this.db, 'login_failures', beforeIso, limit);
  }
}
