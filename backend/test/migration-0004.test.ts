import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type AppDb } from '../src/storage/database.js';
import * as m0001 from '../src/storage/migrations/0001_initial.js';
import * as m0008 from '../src/storage/migrations/0008_thread_turns.js';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';

/** An instance that had accounts before roles existed keeps working: its oldest account becomes the admin. */
describe.each(['sqlite', 'postgres'] as const)('migration 0004 on an existing instance (%s)', (storage) => {
  let pgDb: PgDatabase | undefined;
  let dir: string | undefined;
  afterAll(async () => {
    await pgDb?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  async function open(): Promise<AppDb> {
    if (storage === 'postgres') {
      pgDb = await createPgDatabase('migrate');
      const url = new URL(TEST_PG_URL);
      url.pathname = `/${pgDb.name}`;
      return new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 2 }) }) });
    }
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-migrate-'));
    return new Kysely({ dialect: new SqliteDialect({ database: new SQLite(path.join(dir, 'aigis.sqlite')) }) });
  }

  it('makes the oldest account the admin, the others members, and claims the first-account slot', async () => {
    const db = await open();
    try {
      // Deployed before this branch: 0001 and a higher-numbered migration merged earlier (0008).
      const old = new Migrator({ db, provider: { getMigrations: async () => ({ '0001_initial': m0001, '0008_thread_turns': m0008 }) } });
      expect((await old.migrateToLatest()).error).toBeUndefined();
      const users = [
        { id: 'b', email: 'second@example.com', created_at: '2026-02-01T00:00:00.000Z' },
        { id: 'a', email: 'first@example.com', created_at: '2026-01-01T00:00:00.000Z' },
      ];
      await (db as Kysely<any>).insertInto('users').values(users.map((u) => ({ ...u, password_hash: 'scrypt$x' }))).execute();

      const applied = await migrateToLatest(db);
      expect(applied).toContain('0004_accounts');
      expect(applied).not.toContain('0008_thread_turns');
      const rows = await db.selectFrom('users').select(['id', 'role', 'disabled_at']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'a', role: 'admin', disabled_at: null },
        { id: 'b', role: 'member', disabled_at: null },
      ]);
      expect((await db.selectFrom('instance_settings').selectAll().execute()).map((r) => [r.key, r.value])).toEqual([['bootstrap_admin', 'a']]);
    } finally {
      await db.destroy();
    }
  });
});
