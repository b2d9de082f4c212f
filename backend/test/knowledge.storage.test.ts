import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type AppDb } from '../src/storage/database.js';
import { KnowledgeStore } from '../src/storage/repositories/knowledge/knowledge-store.js';
import type { KnowledgeLearningsTable } from '../src/storage/schema.js';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';

/** The knowledge repositories on both app storages, with the real migrations. */
describe.each(['sqlite', 'postgres'] as const)('knowledge storage (%s)', (storage) => {
  let pgDb: PgDatabase | undefined;
  let dir: string | undefined;
  let db: AppDb;
  let store: KnowledgeStore;
  const now = '2026-11-23T18:00:00.000Z';

  beforeAll(async () => {
    if (storage === 'postgres') {
      pgDb = await createPgDatabase('knowledge_store');
      const url = new URL(TEST_PG_URL);
      url.pathname = `/${pgDb.name}`;
      db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 2 }) }) });
    } else {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-knowledge-'));
      const file = new SQLite(path.join(dir, 'aigis.sqlite'));
      file.pragma('foreign_keys = ON');
      db = new Kysely({ dialect: new SqliteDialect({ database: file }) });
    }
    await migrateToLatest(db);
    await db.insertInto('users').values({ id: 'u1', email: 'a@example.com', password_hash: 'x', role: 'member', disabled_at: null, created_at: now }).execute();
    for (const id of ['c1', 'c2']) {
      await db
        .insertInto('connections')
        .values({
          id,
          user_id: 'u1',
          name: id,
          dialect: 'sqlite',
          host: null,
          port: null,
          database: '/tmp/x.db',
          username: null,
          ssl: 0,
          ssl_mode: 'disable',
          ssl_ca: null,
          elevated_privileges: null,
          sealed_password: null,
          is_demo: 0,
          allowed_functions: '[]',
          allowed_tables: '[]',
          excluded_tables: '[]',
          review: 'never',
          review_max_cost: null,
          review_max_rows: null,
          review_scan_rows: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    store = new KnowledgeStore(db);
  });

  afterAll(async () => {
    await db?.destroy();
    await pgDb?.drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const learning = (over: Partial<KnowledgeLearningsTable> = {}): KnowledgeLearningsTable => ({
    id: crypto.randomUUID(),
    connection_id: 'c1',
    category: 'naming',
    tables: '["track"]',
    failed_sql: 'SELECT name FROM track',
    working_sql: 'SELECT "Name" FROM track',
    lesson: 'Track names are in the quoted column "Name".',
    content_key: 'k1',
    confidence: 1,
    thread_id: null,
    created_at: now,
    updated_at: now,
    ...over,
  });

  it('records a repeated learning once, raising its confidence up to the cap', async () => {
    const first = await store.learnings.record(learning(), 3);
    expect(first.confidence).toBe(1);
    const again = await store.learnings.record(learning({ updated_at: '2026-11-23T18:05:00.000Z' }), 3);
    expect(again.id).toBe(first.id);
    expect(again.confidence).toBe(2);
    await store.learnings.record(learning(), 3);
    expect((await store.learnings.record(learning(), 3)).confidence).toBe(3);
    await store.learnings.record(learning({ content_key: 'k2', lesson: 'other' }), 3);
    expect(await store.learnings.count('c1')).toBe(2);
    // Ranked by confidence; a limit bounds what reaches a prompt.
    expect((await store.learnings.list('c1', 1)).map((l) => l.content_key)).toEqual(['k1']);
    expect(await store.learnings.count('c2')).toBe(0);
  });

  it('keeps one note per table (replaced in place) and one glossary term per folded name', async () => {
    const note = { connection_id: 'c1', schema_name: '', table_name: 'track', description: 'one', column_notes: '{}', data_quality: '[]', updated_at: now };
    await store.tables.put({ id: 'n1', ...note });
    await store.tables.put({ id: 'n2', ...note, description: 'two' });
    const notes = await store.tables.list('c1');
    expect(notes.map((n) => [n.id, n.description])).toEqual([['n1', 'two']]);

    const term = { connection_id: 'c1', term: 'MRR', term_key: 'mrr', definition: 'd', sql: null, unit: null, caveats: '[]', created_at: now, updated_at: now };
    await store.glossary.insert({ id: 'g1', ...term });
    await expect(store.glossary.insert({ id: 'g2', ...term, term: 'mrr' })).rejects.toThrow();
    expect((await store.glossary.findByTerm('c1', 'mrr'))?.id).toBe('g1');
  });

  it('skips a duplicate example and changes the revision on every change', async () => {
    const example = { connection_id: 'c1', question: 'q', sql: 'SELECT 1', content_key: 'e1', source: 'manual', thread_id: null, row_count: 1, columns: '["1"]', elapsed_ms: 1, verified_at: now, created_at: now, updated_at: now };
    const empty = await store.examples.revision('c1');
    expect(await store.examples.insert({ id: 'e1', ...example })).toBe(true);
    const one = await store.examples.revision('c1');
    expect(one).not.toBe(empty);
    expect(await store.examples.insert({ id: 'e2', ...example })).toBe(false);
    expect(await store.examples.revision('c1')).toBe(one);
    await store.examples.update('c1', 'e1', { question: 'q2', updated_at: '2026-11-23T18:10:00.000Z' });
    expect(await store.examples.revision('c1')).not.toBe(one);
  });

  it('rolls a failed transaction back whole, and deleting the connection deletes its knowledge', async () => {
    await expect(
      store.transaction(async (trx) => {
        await trx.learnings.deleteAll('c1');
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    expect(await store.learnings.count('c1')).toBe(2);

    await store.instructions.put({ connection_id: 'c1', text: 'Amounts are in cents.', updated_at: now });
    await store.instructions.put({ connection_id: 'c1', text: 'Amounts are in euros.', updated_at: now });
    expect((await store.instructions.find('c1'))?.text).toBe('Amounts are in euros.');
    await db.deleteFrom('connections').where('id', '=', 'c1').execute();
    expect(await store.learnings.count('c1')).toBe(0);
    expect(await store.examples.count('c1')).toBe(0);
    expect(await store.instructions.find('c1')).toBeUndefined();
  });
});
