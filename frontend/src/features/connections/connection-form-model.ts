import { type Connection, type CreateConnectionRequest, DEFAULT_PORTS, type Dialect, type ElevatedPrivilege, parseConnectionUrl, type SslMode } from '@aigis/contracts';

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
  sslMode: SslMode;
  /** PEM CA certificate(s) for verify-ca / verify-full; empty = the server's system roots. */
  sslCa: string;
  /** Functions of their own queries may call, comma-separated (`my_fn, public.other_fn`). */
  allowedFunctions: string;
}

export const SSL_MODE_LABEL: Record<SslMode, string> = {
  disable: 'Off (plain text)',
  require: 'Encrypt (certificate not checked)',
  'verify-ca': 'Encrypt and check the certificate’s issuer',
  'verify-full': 'Encrypt and check issuer and host name',
};

/** The port field's default per dialect (SQLite has none). */
export const DEFAULT_PORT_TEXT: Record<Dialect, string> = { postgres: String(DEFAULT_PORTS.postgres), mysql: String(DEFAULT_PORTS.mysql), sqlite: '' };

export function emptyForm(dialect: Dialect = 'postgres'): ConnectionFormValues {
  return { name: '', dialect, host: 'localhost', port: DEFAULT_PORT_TEXT[dialect], database: '', user: '', password: '', sslMode: 'disable', sslCa: '', allowedFunctions: '' };
}

export function formFromConnection(c: Connection): ConnectionFormValues {
  return {
    name: c.name,
    dialect: c.dialect,
    host: c.host ?? '',
    port: c.port != null ? String(c.port) : DEFAULT_PORT_TEXT[c.dialect],
    database: c.database ?? '',
    user: c.user ?? '',
    password: '',
    sslMode: c.ssl_mode ?? (c.ssl ? 'require' : 'disable'),
    sslCa: c.ssl_ca ?? '',
    allowedFunctions: (c.allowed_functions ?? []).join(', '),
  };
}

/**
 * Fills form fields from a pasted connection URL (`postgres://user:pw@host:5432/db?sslmode=require`,
 * `mysql://user@host/db`, `sqlite:///chinook.db`), read by the parser the API uses, so what fills the form is
 * what the API would store. Answers the parser's message for what it cannot read.
 */
export function formValuesFromUrl(raw: string): { values: Partial<ConnectionFormValues> } | { error: string } {
  const parsed = parseConnectionUrl(raw);
  if (!parsed.ok) return { error: `Cannot read this URL: ${parsed.error}.` };
  const { dialect, host, port, database, user, password, sslMode } = parsed.value;
  if (dialect === 'sqlite') return { values: { dialect, database: database ?? '' } };
  const values: Partial<ConnectionFormValues> = { dialect, host: host ?? '', port: String(port), database: database ?? '', user: user ?? '', sslMode };
  if (password) values.password = password;
  if (database) values.name = database;
  return { values };
}

const SSL_STRENGTH: Record<SslMode, number> = { disable: 0, require: 1, 'verify-ca': 2, 'verify-full': 3 };

/**
 * Whether saving these values drops the stored password: the server, database, user or type changed, or TLS got
 * weaker, and no new password was typed. The API does the same; the form says so before saving.
 */
export function passwordWillBeDropped(saved: Connection | null, v: ConnectionFormValues): boolean {
  if (!saved || !saved.has_password || v.password || v.dialect === 'sqlite') return false;
  const before = formFromConnection(saved);
  const moved = (['dialect', 'host', 'port', 'database', 'user'] as const).some((k) => before[k].trim() !== v[k].trim());
  const weaker = SSL_STRENGTH[v.sslMode] < SSL_STRENGTH[before.sslMode];
  const otherCa = SSL_STRENGTH[before.sslMode] >= 2 && before.sslCa.trim() !== v.sslCa.trim();
  return moved || weaker || otherCa;
}

const ELEVATED_LABEL: Record<ElevatedPrivilege, string> = {
  superuser: 'is a superuser',
  read_server_files: 'can read files on the database server',
  write_server_files: 'can write files on the database server',
  run_server_programs: 'can run programs on the database server',
  grant_privileges: 'can grant privileges to others',
};

/** "is a superuser, can read files on the database server and …" */
export function describeElevated(privileges: ElevatedPrivilege[]): string {
  const parts = privileges.map((p) => ELEVATED_LABEL[p]);
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
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
    if (v.sslCa.trim() && !v.sslCa.includes('-----BEGIN CERTIFICATE-----')) errors.sslCa = 'Paste PEM certificates (-----BEGIN CERTIFICATE----- …).';
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
export function toConnectionInput(v: ConnectionFormValues): CreateConnectionRequest {
  const allowed_functions = parseFunctionList(v.allowedFunctions);
  if (v.dialect === 'sqlite') return { name: v.name.trim(), dialect: 'sqlite', database: v.database.trim(), allowed_functions };
  return {
    name: v.name.trim(),
    dialect: v.dialect,
    host: v.host.trim(),
    port: Number(v.port),
    database: v.database.trim(),
    user: v.user.trim(),
    ssl_mode: v.sslMode,
    ssl_ca: v.sslCa.trim() ? v.sslCa.trim() : null,
    allowed_functions,
    ...(v.password ? { password: v.password } : {}),
  };
}
