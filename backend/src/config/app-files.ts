import path from 'node:path';
import type { AppConfig } from './env.schema.js';

/** Files the app owns in DATA_DIR; none of them may ever be opened as a user's SQLite connection. */
export function appOwnFiles(config: Pick<AppConfig, 'dataDir'>): string[] {
  return ['aigis.sqlite', 'checkpoints.sqlite', 'master.key', 'master.key.next'].map((f) => path.join(config.dataDir, f));
}

export function checkpointsSqlitePath(config: Pick<AppConfig, 'dataDir'>): string {
  return path.join(config.dataDir, 'checkpoints.sqlite');
}
