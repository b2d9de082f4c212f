import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import type Database from 'better-sqlite3';
import type { Statement } from 'better-sqlite3';
import type pg from 'pg';
import { checkpointsSqlitePath, createPrivateFile, ensurePrivateDataDir, fixAppFileModes } from '../config/app-files.js';
import type { AppConfig } from '../config/env.schema.js';
import { type CheckpointIdLister, type CheckpointPruner, ThreadCheckpointSaver } from './thread-checkpoint-saver.js';
import { createStoragePool } from '../storage/storage-pool.js';

export interface Checkpointer {
  saver: BaseCheckpointSaver;
  deleteThread(threadId: string): Promise<void>;
  close(): Promise<void>;
}

/** Checkpoints next to the app storage: PostgreSQL in server mode, a SQLite file in DATA_DIR otherwise. */
export async function createCheckpointer(config: AppConfig): Promise<Checkpointer> {
  if (config.DATABASE_URL) {
    // Our own pool (not fromConnString's) so a terminated storage backend is logged, not fatal.
    const pool = createStoragePool(config.DATABASE_URL, { max: 10, name: 'checkpoints' });
    const saver = new PostgresSaver(pool, undefined, { schema: CHECKPOINT_SCHEMA });
    await saver.setup();
    // PostgreSQL's autovacuum reuses the space of deleted checkpoints; nothing to do after a delete.
    return {
      saver: new ThreadCheckpointSaver(saver, postgresCheckpointIds(pool), postgresPruner(pool)),
      deleteThread: (id) => saver.deleteThread(id),
      close: () => saver.end(),
    };
  }
  ensurePrivateDataDir(config);
  createPrivateFile(checkpointsSqlitePath(config));
  const saver = SqliteSaver.fromConnString(checkpointsSqlitePath(config));
  useIncrementalVacuum(saver.db);
  saver.db.pragma('journal_mode = WAL');
  // Checkpoints are written several times per answer; NORMAL avoids an fsync on the event loop each time.
  saver.db.pragma('synchronous = NORMAL');
  // The WAL file shrinks back to this after a checkpoint instead of keeping its largest size for ever.
  saver.db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
  fixAppFileModes(config);
  return {
    saver: new ThreadCheckpointSaver(saver, sqliteCheckpointIds(saver), sqlitePruner(saver)),
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

/**
 * Freed pages SQLite keeps for the next checkpoints before they go back to the file system (4 MiB of 4 KiB pages):
 * every turn writes new checkpoints into the pages its pruning just freed, so vacuuming each time (as this once
 * did) only shrank the file to grow it again, at a cost on the event loop every turn.
 */
export const FREE_PAGES_KEPT = 1024;

function sqlitePruner(saver: SqliteSaver): CheckpointPruner {
  // Prepared once, on first use (the saver creates its tables lazily, before the first prune can run).
  let prepared: { oldestKept: Statement; prune: (threadId: string, ns: string, oldestKept: string) => void } | undefined;
  const statements = () => {
    if (prepared) return prepared;
    const db = saver.db;
    const deleteWrites = db.prepare('DELETE FROM writes WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id < ?');
    const deleteCheckpoints = db.prepare('DELETE FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? AND checkpoint_id < ?');
    return (prepared = {
      oldestKept: db.prepare('SELECT checkpoint_id FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ? ORDER BY checkpoint_id DESC LIMIT 1 OFFSET ?').pluck(),
      prune: db.transaction((threadId: string, ns: string, oldestKept: string) => {
        deleteWrites.run(threadId, ns, oldestKept);
        deleteCheckpoints.run(threadId, ns, oldestKept);
      }),
    });
  };
  return async (threadId, ns, keep) => {
    const { oldestKept, prune } = statements();
    const oldest = oldestKept.get(threadId, ns, keep - 1) as string | undefined;
    if (!oldest) return;
    prune(threadId, ns, oldest);
    if ((saver.db.pragma('freelist_count', { simple: true }) as number) > FREE_PAGES_KEPT) saver.db.pragma('incremental_vacuum');
  };
}

function postgresCheckpointIds(pool: pg.Pool): CheckpointIdLister {
  return async (threadId, ns) => {
    const { rows } = await pool.query<{ checkpoint_id: string }>(
      `SELECT checkpoint_id FROM ${CHECKPOINT_SCHEMA}.checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 ORDER BY checkpoint_id DESC LIMIT ${FALLBACK_DEPTH}`,
      [threadId, ns],
    );
    return rows.map((r) => r.checkpoint_id);
  };
}

/** Channel values live in blobs shared between checkpoints by version: only those no kept checkpoint names go. */
function postgresPruner(pool: pg.Pool): CheckpointPruner {
  const s = CHECKPOINT_SCHEMA;
  return async (threadId, ns, keep) => {
    await pool.query(
      `WITH oldest_kept AS (
         SELECT checkpoint_id FROM ${s}.checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 ORDER BY checkpoint_id DESC LIMIT 1 OFFSET $3
       ), gone_writes AS (
         DELETE FROM ${s}.checkpoint_writes WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id < (SELECT checkpoint_id FROM oldest_kept)
       )
       DELETE FROM ${s}.checkpoints WHERE thread_id = $1 AND checkpoint_ns = $2 AND checkpoint_id < (SELECT checkpoint_id FROM oldest_kept)`,
      [threadId, ns, keep - 1],
    );
    await pool.query(
      `DELETE FROM ${s}.checkpoint_blobs b WHERE b.thread_id = $1 AND b.checkpoint_ns = $2 AND NOT EXISTS (
         SELECT 1 FROM ${s}.checkpoints c
         WHERE c.thread_id = b.thread_id AND c.checkpoint_ns = b.checkpoint_ns AND c.checkpoint->'channel_versions'->>b.channel = b.version)`,
      [threadId, ns],
    );
  };
}
