import fs from 'node:fs';
import path from 'node:path';
import { AppError } from '../common/app-error.js';

const SQLITE_EXTENSIONS = /\.(sqlite3?|db3?|s3db|sl3)$/i;

/**
 * Which files under the root a user may open: everything (admins), or only what lies inside one of
 * `within` (absolute paths of files or folders: the user's own folder, grants, the demo store).
 */
export type SqliteScope = { everything: true } | { everything: false; within: string[] };

/**
 * Resolves a user-supplied SQLite file name to an absolute path strictly inside `root` and the user's
 * scope: no `..`, no absolute path elsewhere, no symlink escaping, never one of the app's own files.
 * A missing file, a file outside the scope and an app file get the same answer, so the error does not
 * tell anyone which files exist.
 */
export function resolveSqliteFile(root: string, requested: string, forbidden: string[], scope: SqliteScope = { everything: true }): string {
  const invalid = (why: string) => new AppError('VALIDATION_FAILED', `database: ${why}`);
  if (requested.includes('\0')) throw invalid('contains a NUL character');
  const segments = requested.split(/[\\/]+/);
  if (segments.includes('..')) throw invalid('".." is not allowed; give a file under SQLITE_ROOT');
  const rootReal = realpathOrNull(root);
  if (!rootReal) throw invalid(`SQLITE_ROOT (${root}) does not exist on the server`);
  const unavailable = invalid(`no SQLite file "${requested}" that you may use under SQLITE_ROOT`);
  const candidate = path.isAbsolute(requested) ? path.resolve(requested) : path.resolve(rootReal, requested);
  const real = realpathOrNull(candidate);
  if (!real || !isInside(rootReal, real) || !inScope(real, scope)) throw unavailable;
  if (!fs.statSync(real).isFile()) throw unavailable;
  const forbiddenReal = forbidden.map((f) => realpathOrNull(f) ?? path.resolve(f));
  if (forbiddenReal.some((f) => f === real || real.startsWith(`${f}-`)) || sameFileAsAny(real, forbiddenReal)) throw unavailable;
  return real;
}

function inScope(real: string, scope: SqliteScope): boolean {
  if (scope.everything) return true;
  return scope.within.some((allowed) => {
    const allowedReal = realpathOrNull(allowed);
    return allowedReal !== null && (allowedReal === real || isInside(allowedReal, real));
  });
}

/** What an admin may grant a member: an existing file or folder under the root that holds no app file. */
export function resolveGrantablePath(root: string, requested: string, forbidden: string[]): string {
  const invalid = new AppError('VALIDATION_FAILED', `path: no file or folder "${requested}" under SQLITE_ROOT`);
  if (requested.includes('\0') || requested.split(/[\\/]+/).includes('..')) throw invalid;
  const rootReal = realpathOrNull(root);
  const real = rootReal ? realpathOrNull(path.isAbsolute(requested) ? requested : path.join(rootReal, requested)) : null;
  if (!rootReal || !real || !isInside(rootReal, real)) throw invalid;
  const forbiddenReal = forbidden.map((f) => realpathOrNull(f) ?? path.resolve(f));
  if (forbiddenReal.some((f) => f === real || real.startsWith(`${f}-`) || isInside(real, f))) throw invalid;
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

/** Files under the root (and in scope) that look like SQLite databases (by extension or header), app files excluded. */
export function listSqliteFiles(root: string, forbidden: string[], maxFiles = 500, scope: SqliteScope = { everything: true }): SqliteFileEntry[] {
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
      else if (entry.isFile() && !forbiddenReal.has(full) && !sameFileAsAny(full, [...forbiddenReal]) && isSqliteFile(full, entry.name)) {
        found.push({ path: path.relative(rootReal, full).split(path.sep).join('/'), size_bytes: fs.statSync(full).size });
      }
      if (found.length >= maxFiles) return;
    }
  };
  const starts = scope.everything ? [rootReal] : scope.within.map(realpathOrNull).filter((p): p is string => p !== null && (p === rootReal || isInside(rootReal, p)));
  const seen = new Set<string>();
  for (const start of starts) {
    if (fs.statSync(start).isDirectory()) walk(start, 0);
    else if (!forbiddenReal.has(start) && isSqliteFile(start, path.basename(start))) {
      found.push({ path: path.relative(rootReal, start).split(path.sep).join('/'), size_bytes: fs.statSync(start).size });
    }
  }
  return found.filter((f) => !seen.has(f.path) && seen.add(f.path)).slice(0, maxFiles);
}

function isSqliteFile(full: string, name: string): boolean {
  return SQLITE_EXTENSIONS.test(name) || hasSqliteHeader(full);
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
