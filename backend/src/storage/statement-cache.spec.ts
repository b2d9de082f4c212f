import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './statement-cache.js';

describe('withStatementCache', () => {
  const open: SQLite.Database[] = [];
  const memory = () => {
    const db = new SQLite(':memory:');
    open.push(db);
    return db;
  };
  afterEach(() => open.splice(0).forEach((db) => db.open && db.close()));

  it('prepares each SQL text once', () => {
    const cached = withStatementCache(memory());
    const first = cached.prepare('SELECT 1 AS x');
    expect(cached.prepare('SELECT 1 AS x')).toBe(first);
    expect(cached.prepare('SELECT 2 AS x')).not.toBe(first);
  });

  it('never hands out a statement that is still being iterated', () => {
    const db = memory();
    db.exec('CREATE TABLE t (n INTEGER); INSERT INTO t VALUES (1), (2), (3)');
    const cached = withStatementCache(db);
    const reading = cached.prepare('SELECT n FROM t').iterate([]);
    reading.next();
    const second = cached.prepare('SELECT n FROM t');
    expect(second.all([])).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect([...reading]).toEqual([{ n: 2 }, { n: 3 }]);
  });

  it('keeps at most `max` statements, dropping the least recently used', () => {
    const cached = withStatementCache(memory(), 2);
    const a = cached.prepare('SELECT 1');
    cached.prepare('SELECT 2');
    expect(cached.prepare('SELECT 1')).toBe(a); // used again: now the most recent
    cached.prepare('SELECT 3');
    expect(cached.size).toBe(2);
    expect(cached.prepare('SELECT 1')).toBe(a);
    const b2 = cached.prepare('SELECT 2');
    expect(cached.prepare('SELECT 2')).toBe(b2);
  });

  it('serves Kysely across a schema change (a migration adding a column)', async () => {
    const db = new Kysely<{ t: { n: number; label?: string } }>({ dialect: new SqliteDialect({ database: withStatementCache(memory()) }) });
    await sql`CREATE TABLE t (n INTEGER)`.execute(db);
    await db.insertInto('t').values({ n: 1 }).execute();
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ n: 1 }]);
    await sql`ALTER TABLE t ADD COLUMN label TEXT DEFAULT 'x'`.execute(db);
    expect(await db.selectFrom('t').selectAll().execute()).toEqual([{ n: 1, label: 'x' }]);
    await db.destroy();
  });
});
