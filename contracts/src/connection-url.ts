/**
 * The one reader of connection URLs: the web app fills its form with it, the API stores what it reads. Both
 * must agree, or a URL that fills the form would be refused on save (or saved as something else).
 */
import type { Dialect, SslMode } from './api.js';

export const DEFAULT_PORTS: Record<Exclude<Dialect, 'sqlite'>, number> = { postgres: 5432, mysql: 3306 };

/** What a URL says. `database`, `user` and `password` are null when it does not say. */
export interface ParsedConnectionUrl {
  dialect: Dialect;
  /** Null for SQLite. */
  host: string | null;
  port: number | null;
  /** SQLite: the file, relative to SQLITE_ROOT unless absolute. */
  database: string | null;
  user: string | null;
  password: string | null;
  sslMode: SslMode;
}

export type ConnectionUrlResult = { ok: true; value: ParsedConnectionUrl } | { ok: false; error: string };

// `postgresql+psycopg2://` (SQLAlchemy) names the same database as `postgresql://`.
const SCHEMES: Record<string, Dialect> = { postgres: 'postgres', postgresql: 'postgres', mysql: 'mysql', mariadb: 'mysql', sqlite: 'sqlite', file: 'sqlite' };

// libpq's sslmode and MySQL's ssl-mode names. prefer/allow would fall back to plain text silently: refused.
const URL_SSL_MODES: Record<string, SslMode> = {
  disable: 'disable',
  disabled: 'disable',
  require: 'require',
  required: 'require',
  'verify-ca': 'verify-ca',
  verify_ca: 'verify-ca',
  'verify-full': 'verify-full',
  verify_identity: 'verify-full',
};
const URL_SSL_FLAGS: Record<string, SslMode> = { true: 'require', '1': 'require', false: 'disable', '0': 'disable' };
// A certificate file named in a URL would be read from the Aigis server's disk.
const FILE_PARAMS = ['sslrootcert', 'sslcert', 'sslkey', 'ssl-ca', 'ssl-cert', 'ssl-key'];

class UrlProblem extends Error {}

/**
 * Reads `postgres://user:password@host:5432/db?sslmode=require`, `mysql://…`, `mariadb://…` and SQLite URLs.
 * SQLite follows SQLAlchemy: `sqlite:///demo.db` and `sqlite:demo.db` name `demo.db` under SQLITE_ROOT,
 * `sqlite:////srv/data/demo.db` (four slashes) an absolute path. Parts are percent-decoded.
 */
export function parseConnectionUrl(raw: string): ConnectionUrlResult {
  try {
    return { ok: true, value: parse(raw.trim()) };
  } catch (error) {
    if (error instanceof UrlProblem) return { ok: false, error: error.message };
    throw error;
  }
}

function parse(text: string): ParsedConnectionUrl {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  if (!scheme) throw new UrlProblem('not a valid URL (example: postgres://user:password@host:5432/database)');
  const dialect = own(SCHEMES, scheme.split('+')[0]);
  if (!dialect) throw new UrlProblem(`unsupported scheme "${scheme}:" (use postgres://, mysql://, mariadb:// or sqlite:///file.db)`);
  return dialect === 'sqlite' ? parseSqlite(text.slice(scheme.length + 1)) : parseServer(text, dialect);
}

function parseSqlite(rest: string): ParsedConnectionUrl {
  if (/[?#]/.test(rest)) throw new UrlProblem('a SQLite URL takes no options (?…); name only the file, e.g. sqlite:///demo.db');
  // `//` starts the (empty) authority; the one slash after it separates it from a relative path.
  const path = rest.startsWith('//') ? rest.slice(2).replace(/^\//, '') : rest;
  const database = decode(path, 'file name');
  if (!database) throw new UrlProblem('the URL names no database file (e.g. sqlite:///demo.db)');
  return { dialect: 'sqlite', host: null, port: null, database, user: null, password: null, sslMode: 'disable' };
}

function parseServer(text: string, dialect: Exclude<Dialect, 'sqlite'>): ParsedConnectionUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UrlProblem('not a valid URL (example: postgres://user:password@host:5432/database)');
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!host) throw new UrlProblem('the host is missing (postgres://user@host/database)');
  return {
    dialect,
    host,
    port: url.port ? Number(url.port) : DEFAULT_PORTS[dialect],
    database: decode(url.pathname.replace(/^\//, ''), 'database') || null,
    user: decode(url.username, 'user') || null,
    password: decode(url.password, 'password') || null,
    sslMode: sslModeOf(url.searchParams),
  };
}

function sslModeOf(params: URLSearchParams): SslMode {
  for (const key of FILE_PARAMS) {
    const value = params.get(key);
    if (value !== null && !(key === 'sslrootcert' && value === 'system')) {
      throw new UrlProblem(`${key} is not supported (files are not read from the server); paste the CA certificate instead`);
    }
  }
  const mode = (params.get('sslmode') ?? params.get('ssl-mode') ?? params.get('ssl_mode') ?? '').toLowerCase();
  if (mode) {
    const known = own(URL_SSL_MODES, mode);
    if (!known) throw new UrlProblem(`sslmode=${mode} is not supported; use disable, require, verify-ca or verify-full (prefer/allow would fall back to plain text silently)`);
    return known;
  }
  const flag = params.get('ssl')?.toLowerCase();
  if (flag === undefined) return 'disable';
  const known = own(URL_SSL_FLAGS, flag);
  if (!known) throw new UrlProblem(`ssl=${flag} is not understood; use ssl=true, ssl=false or sslmode=…`);
  return known;
}

/** A lookup that never answers with what the prototype has (`constructor:`, `?sslmode=__proto__`). */
function own<T>(record: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** A percent-encoded part; a malformed escape (`%zz`) is the user's input error, not a crash. */
function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new UrlProblem(`the ${what} has a malformed percent-escape (write % as %25)`);
  }
}
