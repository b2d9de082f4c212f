import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import { APP_DB } from '../tokens.js';

@Injectable()
export class InstanceSettingsRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  async get(key: string): Promise<string | null> {
    const row = await this.db.selectFrom('instance_settings').select('value').where('key', '=', key).executeTakeFirst();
    return row?.value ?? null;
  }

  async set(key: string, value: string, nowIso: string): Promise<void> {
    await this.db
      .insertInto('instance_settings')
      .values({ key, value, updated_at: nowIso })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: nowIso }))
      .execute();
  }

  /** Sets the key only if nobody has: true for the one caller that wins (the primary key decides). */
  async claim(key: string, value: string, nowIso: string): Promise<boolean> {
    const result = await this.db
      .insertInto('instance_settings')
      .values({ key, value, updated_at: nowIso })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  async delete(key: string): Promise<void> {
    await this.db.deleteFrom('instance_settings').where('key', '=', key).execute();
  }
}
