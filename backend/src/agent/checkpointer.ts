import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import fs from 'node:fs';
import { checkpointsSqlitePath } from '../config/app-files.js';
import type { AppConfig } from '../config/env.schema.js';

export interface Checkpointer {
  saver: BaseCheckpointSaver;
  deleteThread(threadId: string): Promise<void>;
  close(): Promise<void>;
}

/** Checkpoints next to the app storage: PostgreSQL in server mode, a SQLite file in DATA_DIR otherwise. */
export async function createCheckpointer(config: AppConfig): Promise<Checkpointer> {
  if (config.DATABASE_URL) {
    const saver = PostgresSaver.fromConnString(config.DATABASE_URL, { schema: 'aigis_checkpoints' });
    await saver.setup();
    return { saver, deleteThread: (id) => saver.deleteThread(id), close: () => saver.end() };
  }
  fs.mkdirSync(config.dataDir, { recursive: true });
  const saver = SqliteSaver.fromConnString(checkpointsSqlitePath(config));
  saver.db.pragma('journal_mode = WAL');
  // Checkpoints are written several times per answer; NORMAL avoids an fsync on the event loop each time.
  saver.db.pragma('synchronous = NORMAL');
  return {
    saver,
    deleteThread: (id) => saver.deleteThread(id),
    close: async () => {
      saver.db.close();
    },
  };
}
