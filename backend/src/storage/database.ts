import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { Migrator } from 'kysely/migration';
import { createPrivateFile, ensurePrivateDataDir } from '../config/app-files.js';
import type { AppConfig } from '../config/env.schema.js';
import { migrationProvider } from './migrations/index.js';
import type { AppDatabase } from './schema.js';
import { withStatementCache } from './statement-cache.js';
import { createStoragePool } from './storage-pool.js';

export type AppDb = Kysely<AppDatabase>;

/** The embedded app database file; never reachable as a user's SQLite connection. */
export function appSqlitePath(config: Pick<AppConfig, 'dataDir'>): string {
  return path.join(config.dataDir, 'aigis.sqlite');
}

/** PostgreSQL when DATABASE_URL is set (server mode), otherwise SQLite in DATA_DIR. */
export function createAppDb(config: AppConfig): AppDb {
  if (config.DATABASE_URL) {
    return new Kysely<AppDatabase>({
      dialect: new PostgresDialect({ pool: createStoragePool(config.DATABASE_URL, { max: 10, name: 'app storage' }) }),
    });
  }
  ensurePrivateDataDir(config);
  createPrivateFile(appSqlitePath(config));
  const file = new SQLite(appSqlitePath(config));
  file.pragma('journal_mode = WAL');
  // In WAL mode NORMAL cannot corrupt the file; FULL would fsync every commit on the event loop.
  file.pragma('synchronous = NORMAL');
  file.pragma('foreign_keys = ON');
  file.pragma('busy_timeout = 5000');
  return new Kysely<AppDatabase>({ dialect: new SqliteDialect({ database: withStatementCache(file) }) });
}

/** Runs every pending migration; a failure stops the start with the migration's error. */
export async function migrateToLatest(db: AppDb): Promise<string[]> {
  // Numbers are handed out per feature branch, so a database may already hold a higher one than a
  // migration merged later; each migration touches only its own tables and columns.
  const migrator = new Migrator({ db, provider: migrationProvider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`App storage migration ${failed?.migrationName ?? ''} failed: ${String((error as Error)?.message ?? error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
