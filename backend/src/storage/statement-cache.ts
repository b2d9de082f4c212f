import type SQLite from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many distinct statements stay prepared; the app issues a few dozen shapes of query. */
export const STATEMENT_CACHE_SIZE = 256;

/**
 * better-sqlite3 for Kysely, with each SQL text prepared once. Kysely prepares on every query, and preparing
 * (parsing and planning in SQLite) costs more than running the small statements the app issues. A statement
 * still being iterated is never handed out twice; the least recently used one is dropped past `max`.
 * SQLite re-prepares a cached statement by itself when the schema changes (migrations).
 */
export function withStatementCache(db: SQLite.Database, max = STATEMENT_CACHE_SIZE): SqliteDatabase & { readonly size: number } {
  const cache = new Map<string, SQLite.Statement>();
  return {
    get size() {
      return cache.size;
    },
    close: () => db.close(),
    prepare(sql: string) {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = db.prepare(sql);
      if (!cached) {
        cache.set(sql, statement);
        if (cache.size > max) cache.delete(cache.keys().next().value!);
      }
      return statement;
    },
  };
}
