import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from './env.schema.js';

/** Files the app owns in DATA_DIR; none of them may ever be opened as a user's SQLite connection. */
export function appOwnFiles(config: Pick<AppConfig, 'dataDir'>): string[] {
  return ['aigis.sqlite', 'checkpoints.sqlite', 'master.key', 'master.key.next'].map((f) => path.join(config.dataDir, f));
}

export function checkpointsSqlitePath(config: Pick<AppConfig, 'dataDir'>): string {
  return path.join(config.dataDir, 'checkpoints.sqlite');
}

/** SQLite's companions of a database file, which hold the same data. */
const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'];

/**
 * DATA_DIR holds the key and every user's data: only the app's own user may read it. Modes are set with
 * chmod, so they do not depend on the umask, and existing files from an older start are fixed too.
 */
export function ensurePrivateDataDir(config: Pick<AppConfig, 'dataDir'>): void {
  fs.mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  chmodIfOwned(config.dataDir, 0o700);
}

/** Creates an app SQLite file as 0600 before SQLite opens it (SQLite gives its -wal/-shm the same mode). */
export function createPrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  chmodIfOwned(file, 0o600);
}

/** Sets 0600 on every app file in DATA_DIR that exists (SQLite creates its -wal/-shm lazily). */
export function fixAppFileModes(config: Pick<AppConfig, 'dataDir'>): void {
  for (const file of appOwnFiles(config)) {
    for (const candidate of [file, ...(file.endsWith('.sqlite') ? SQLITE_COMPANIONS.map((s) => file + s) : [])]) {
      if (fs.existsSync(candidate)) chmodIfOwned(candidate, 0o600);
    }
  }
}

/** A DATA_DIR owned by someone else (a mounted volume) cannot be changed; the start goes on. */
function chmodIfOwned(target: string, mode: number): void {
  try {
    fs.chmodSync(target, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
    console.warn(`Could not set mode ${mode.toString(8)} on ${target}: it belongs to another user`);
  }
}
