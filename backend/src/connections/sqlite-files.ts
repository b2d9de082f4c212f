import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../common/app-error.js';

const SQLITE_EXTENSIONS = /\.(sqlite3?|db3?|s3db|sl3)$/i;

/**
 * Resolves a user-supplied SQLite file name to an absolute path strictly inside `root`:
 * no `..`, no absolute path elsewhere, no symlink escaping the root, and never one of the app's own files.
 */
export function resolveSqliteFile(root: string, requested: string, forbidden: string[]): string {
  const invalid = (why: string) => new AppError('VALIDATION_FAILED', `database: ${why}`);
  if (requested.includes('\0')) throw invalid('contains a NUL character');
  const segments = requested.split(/[\\/]+/);
  if (segments.includes('..')) throw invalid('".." is not allowed; give a file under SQLITE_ROOT');
  const rootReal = realpathOrNull(root);
  if (!rootReal) throw invalid(`SQLITE_ROOT (${root}) does not exist on the server`);
  const candidate = path.isAbsolute(requested) ? path.resolve(requested) : path.resolve(rootReal, requested);
  const real = realpathOrNull(candidate);
  if (!real) throw invalid(`no such file under SQLITE_ROOT: ${requested}`);
  if (!isInside(rootReal, real)) throw invalid('the file must lie under SQLITE_ROOT');
  if (!fs.statSync(real).isFile()) throw invalid(`${requested} is not a file`);
  const forbiddenReal = forbidden.map((f) => realpathOrNull(f) ?? path.resolve(f));
  if (forbiddenReal.some((f) => f === real || real.startsWith(`${f}-`)) || sameFileAsAny(real, forbiddenReal)) {
    throw invalid("the app's own database cannot be used as a connection");
  }
  return real;
}

/** A hard link is another path to the same file: compared by device and inode, not by name. */
function sameFileAsAny(file: string, others: string[]): boolean {
  const stat = fs.statSync(file);
  return others.some((other) => {
    try {
      const o = fs.statSync(other);
      return o.dev === stat.dev && o.ino === stat.ino;
    } catch {
      return false;
    }
  });
}

/** The path stored for a connection: relative to the root, so moving SQLITE_ROOT keeps connections working. */
export function relativeToRoot(root: string, absolute: string): string {
  return path.relative(realpathOrNull(root) ?? root, absolute).split(path.sep).join('/');
}

export interface SqliteFileEntry {
  path: string;
  size_bytes: number;
}

/** Files under the root that look like SQLite databases (by extension or header), app files excluded. */
export function listSqliteFiles(root: string, forbidden: string[], maxFiles = 500): SqliteFileEntry[] {
  const rootReal = realpathOrNull(root);
  if (!rootReal) return [];
  const forbiddenReal = new Set(forbidden.map((f) => realpathOrNull(f) ?? path.resolve(f)));
  const found: SqliteFileEntry[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 4 || found.length >= maxFiles) return;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full, depth + 1);
      else if (entry.isFile() && !forbiddenReal.has(full) && !sameFileAsAny(full, [...forbiddenReal]) && (SQLITE_EXTENSIONS.test(entry.name) || hasSqliteHeader(full))) {
        found.push({ path: path.relative(rootReal, full).split(path.sep).join('/'), size_bytes: fs.statSync(full).size });
      }
      if (found.length >= maxFiles) return;
    }
  };
  walk(rootReal, 0);
  return found;
}

function hasSqliteHeader(file: string): boolean {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const header = Buffer.alloc(16);
      fs.readSync(fd, header, 0, 16, 0);
      return header.toString('latin1') === 'SQLite format 3\0';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

function realpathOrNull(p: string): string | null {
  try {
    return fs.realpathSync(p);
  } catch {
    return null;
  }
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
