import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import type pg from 'pg';
import { checkpointsSqlitePath } from '../config/app-files.js';
import type { AppConfig } from '../config/env.schema.js';
import { type CheckpointIdLister, TolerantCheckpointSaver } from './tolerant-checkpoint-saver.js';

export interface Checkpointer {
  saver: BaseCheckpointSaver;
  deleteThread(threadId: string): Promise<void>;
  close(): Promise<void>;
}

/** Checkpoints next to the app storage: PostgreSQL in server mode, a SQLite file in DATA_DIR otherwise. */
export async function createCheckpointer(config: AppConfig): Promise<Checkpointer> {
  if (config.DATABASE_URL) {
    const saver = PostgresSaver.fromConnString(config.DATABASE_URL, { schema: CHECKPOINT_SCHEMA });
    await saver.setup();
    // PostgreSQL's autovacuum reuses the space of deleted checkpoints; nothing to do after a delete.
    return { saver: new TolerantCheckpointSaver(saver, postgresCheckpointIds(saver)), deleteThread: (id) => saver.deleteThread(id), close: () => saver.end() };
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const saver = SqliteSaver.fromConnString(checkpointsSqlitePath(config));
  useIncrementalVacuum(saver.db);
  saver.db.pragma('journal_mode = WAL');
  // Checkpoints are written several times per answer; NORMAL avoids an fsync on the event loop each time.
  saver.db.pragma('synchronous = NORMAL');
  // The WAL file shrinks back to this after a checkpoint instead of keeping its largest size for ever.
  saver.db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  return {
    saver: new TolerantCheckpointSaver(saver, sqliteCheckpointIds(saver)),
    deleteThread: async (id) => {
      await saver.deleteThread(id);
      // Gives the freed pages back to the file system (the file shrinks), then empties the WAL that held them.
      saver.db.pragma('incremental_vacuum');
      saver.db.pragma('wal_checkpoint(TRUNCATE)');
    },
    close: async () => {
      saver.db.close();
    },
  };
}

const CHECKPOINT_SCHEMA = 'aigis_checkpoints';
const WAL_SIZE_LIMIT = 64 * 1024 * 1024;
/** How far back a damaged thread is searched for a readable checkpoint. */
const FALLBACK_DEPTH = 100;

/**
 * Deleted pages are only given back to the file system with auto_vacuum, which must be chosen before the first
 * table exists; a file made without it is converted once (VACUUM rewrites it).
 */
function useIncrementalVacuum(db: Database.Database): void {
  const INCREMENTAL = 2;
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return;
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
}

function sqliteCheckpointIds(saver: SqliteSaver): CheckpointIdLister {
  // Only called after a failed getTuple, which has created the tables.
  return async (threadId, ns) => {
    return saver.db
      .prepare(`SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT ${FALLBACK_DEPTH}`)
      .pluck()
      .all(threadId, ns) as string[];
  };
}

function postgresCheckpointIds(saver: PostgresSaver): CheckpointIdLister {
  // The saver keeps its pool private; only this read of its own table needs it.
  const pool = (saver as unknown as { pool: pg.Pool }).pool;
  return async (threadId, ns) => {
    const { rows } = await pool.query<{ checkpoint_id: string }>(
      `SELECT checkpoint_id FROM ${CHECKPOINT_SCHEMA}.checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 ORDER BY checkpoint_id DESC LIMIT ${FALLBACK_DEPTH}`,
      [threadId, ns],
    );
    return rows.map((r) => r.checkpoint_id);
  };
}
