import type { Connection, Dialect } from '@aigis/contracts';
import type { ConnectionInput } from './connections-api';

/** The connection form as the person edits it (every field a string, as inputs hold them). */
export interface ConnectionFormValues {
  name: string;
  dialect: Dialect;
  host: string;
  port: string;
  database: string;
  user: string;
  /** Write-only: empty on edit means "keep the stored password". */
  password: string;
  ssl: boolean;
  /** Functions of their own queries may call, comma-separated (`my_fn, public.other_fn`). */
  allowedFunctions: string;
}

export const DEFAULT_PORTS: Record<Dialect, string> = { postgres: '5432', mysql: '3306', sqlite: '' };

export function emptyForm(dialect: Dialect = 'postgres'): ConnectionFormValues {
  return { name: '', dialect, host: 'localhost', port: DEFAULT_PORTS[dialect], database: '', user: '', password: '', ssl: false, allowedFunctions: '' };
}

export function formFromConnection(c: Connection): ConnectionFormValues {
  return {
    name: c.name,
    dialect: c.dialect,
    host: c.host ?? '',
    port: c.port != null ? String(c.port) : DEFAULT_PORTS[c.dialect],
    database: c.database ?? '',
    user: c.user ?? '',
    password: '',
    ssl: c.ssl,
    allowedFunctions: (c.allowed_functions ?? []).join(', '),
  };
}

const SCHEMES: Record<string, Dialect> = {
  postgres: 'postgres',
  postgresql: 'postgres',
  mysql: 'mysql',
  mariadb: 'mysql',
  sqlite: 'sqlite',
  file: 'sqlite',
};

/**
 * Reads a pasted connection URL into form fields, e.g. `postgres://user:pw@host:5432/db?sslmode=require`,
 * `mysql://user@host/db`, `sqlite:///chinook.db`. Answers an error message for what it cannot read.
 */
export function parseConnectionUrl(raw: string): { values: Partial<ConnectionFormValues> } | { error: string } {
  const text = raw.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(text)?.[1]?.toLowerCase();
  const dialect = scheme ? SCHEMES[scheme.split('+')[0]] : undefined;
  if (!dialect) return { error: 'Use a URL starting with postgres://, mysql:// or sqlite://' };

  if (dialect === 'sqlite') {
    // sqlite:///file.db and sqlite:file.db both name a file under SQLITE_ROOT.
    const path = decodeURIComponent(text.replace(/^[a-z]+:(\/\/)?/i, '').replace(/^\/+/, ''));
    if (!path) return { error: 'The URL names no database file.' };
    return { values: { dialect, database: path } };
  }

  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { error: 'This does not look like a valid URL.' };
  }
  const sslmode = url.searchParams.get('sslmode') ?? url.searchParams.get('ssl-mode');
  const ssl = url.searchParams.get('ssl');
  const values: Partial<ConnectionFormValues> = {
    dialect,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1') || 'localhost',
    port: url.port || DEFAULT_PORTS[dialect],
    database: decodeURIComponent(url.pathname.replace(/^\//, '')),
    user: decodeURIComponent(url.username),
    ssl:
      (sslmode !== null && !['disable', 'allow', 'prefer', 'disabled', 'preferred'].includes(sslmode.toLowerCase())) ||
      ssl === 'true' ||
      ssl === '1',
  };
  if (url.password) values.password = decodeURIComponent(url.password);
  if (!values.name && values.database) values.name = values.database;
  return { values };
}

/** What the form may not send yet, as field → message. */
export function validateForm(v: ConnectionFormValues): Partial<Record<keyof ConnectionFormValues, string>> {
  const errors: Partial<Record<keyof ConnectionFormValues, string>> = {};
  if (!v.name.trim()) errors.name = 'Give the connection a name.';
  if (!v.database.trim()) errors.database = v.dialect === 'sqlite' ? 'Pick a database file.' : 'Enter the database name.';
  if (v.dialect !== 'sqlite') {
    if (!v.host.trim()) errors.host = 'Enter the host.';
    const port = Number(v.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) errors.port = 'A port is a number from 1 to 65535.';
    if (!v.user.trim()) errors.user = 'Enter the user.';
    // No password check: trust and socket authentication need none, and the API accepts an empty one.
  }
  return errors;
}

/** `a, b ,, public.c` → ['a', 'b', 'public.c']. */
export function parseFunctionList(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** The request body. On edit an empty password is left out, so the stored one stays. */
export function toConnectionInput(v: ConnectionFormValues): ConnectionInput {
  const allowed_functions = parseFunctionList(v.allowedFunctions);
  if (v.dialect === 'sqlite') return { name: v.name.trim(), dialect: 'sqlite', database: v.database.trim(), allowed_functions };
  const input: ConnectionInput = {
    name: v.name.trim(),
    dialect: v.dialect,
    host: v.host.trim(),
    port: Number(v.port),
    database: v.database.trim(),
    user: v.user.trim(),
    ssl: v.ssl,
    allowed_functions,
  };
  if (v.password) input.password = v.password;
  return input;
}
