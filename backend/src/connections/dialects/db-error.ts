import type { Dialect } from '@aigis/contracts';
import { AppError } from '../../common/app-error.js';
import type { ConnectionTarget, DbErrorClass } from './dialect-adapter.js';

/** The fields the three drivers put on their errors (pg: code = SQLSTATE; mysql2: errno/code; better-sqlite3: code). */
interface DriverError {
  message?: string;
  code?: string | number;
  errno?: number;
  sqlState?: string;
  hint?: string;
  position?: string;
}

function asDriverError(err: unknown): DriverError {
  return typeof err === 'object' && err !== null ? (err as DriverError) : { message: String(err) };
}

const PG_CLASSES: Record<string, DbErrorClass> = {
  '42601': 'syntax',
  '42703': 'column_not_found',
  '42702': 'column_not_found', // ambiguous column: the fix is to qualify it
  '42P01': 'table_not_found',
  '3F000': 'table_not_found', // unknown schema
  '42501': 'permission',
  '57014': 'timeout',
  '25006': 'read_only',
  '42804': 'type_mismatch',
  '42846': 'type_mismatch',
  '42883': 'type_mismatch', // "function round(double precision, integer) does not exist": wrong argument types
  '42725': 'type_mismatch',
  '22P02': 'type_mismatch',
  '22007': 'type_mismatch',
  '22008': 'type_mismatch',
  '22003': 'type_mismatch',
};

const MYSQL_CLASSES: Record<number, DbErrorClass> = {
  1064: 'syntax',
  1149: 'syntax',
  1305: 'syntax', // FUNCTION x does not exist (MySQL has no overloading: a wrong name)
  1582: 'syntax',
  1583: 'syntax',
  1111: 'syntax',
  1055: 'syntax',
  1054: 'column_not_found',
  1052: 'column_not_found',
  1146: 'table_not_found',
  1051: 'table_not_found',
  1049: 'table_not_found',
  1109: 'table_not_found',
  1044: 'permission',
  1045: 'permission',
  1142: 'permission',
  1143: 'permission',
  1227: 'permission',
  1792: 'read_only',
  1290: 'read_only',
  1969: 'timeout', // MariaDB max_statement_time
  3024: 'timeout', // MySQL max_execution_time
  1317: 'timeout',
  1205: 'timeout',
  1366: 'type_mismatch',
  1292: 'type_mismatch',
  1267: 'type_mismatch',
  1270: 'type_mismatch',
  1271: 'type_mismatch',
};

/** Which kind of mistake a database error is, so the model can be told how to correct its SQL. */
export function classifyDbError(dialect: Dialect, err: unknown): DbErrorClass {
  const e = asDriverError(err);
  const message = e.message ?? '';
  if (dialect === 'postgres') {
    const code = typeof e.code === 'string' ? e.code : '';
    return PG_CLASSES[code] ?? (code.startsWith('42') ? 'syntax' : 'execution');
  }
  if (dialect === 'mysql') {
    return (e.errno !== undefined && MYSQL_CLASSES[e.errno]) || 'execution';
  }
  const code = typeof e.code === 'string' ? e.code : '';
  if (code === 'SQLITE_READONLY' || /readonly database|attempt to write/i.test(message)) return 'read_only';
  if (/syntax error|incomplete input|unrecognized token|more than one statement/i.test(message)) return 'syntax';
  if (/no such column|ambiguous column name/i.test(message)) return 'column_not_found';
  if (/no such table/i.test(message)) return 'table_not_found';
  if (/no such function|wrong number of arguments/i.test(message)) return 'syntax';
  if (code === 'SQLITE_AUTH' || code === 'SQLITE_PERM' || /not authorized/i.test(message)) return 'permission';
  if (code === 'SQLITE_MISMATCH' || /datatype mismatch/i.test(message)) return 'type_mismatch';
  if (code === 'SQLITE_INTERRUPT') return 'timeout';
  return 'execution';
}

/** The database's own code: SQLSTATE (PostgreSQL), ER_* name or errno (MySQL), SQLITE_* (SQLite). */
export function dbErrorCode(dialect: Dialect, err: unknown): string | null {
  const e = asDriverError(err);
  if (dialect === 'mysql') return typeof e.code === 'string' ? e.code : e.errno !== undefined ? String(e.errno) : null;
  return e.code !== undefined ? String(e.code) : null;
}

/** Removes the password from a message in case a driver ever echoes it (none is known to, but logs are forever). */
export function redactSecret(message: string, secret: string | null | undefined): string {
  return secret && secret.length >= 3 ? message.split(secret).join('***') : message;
}

export interface QueryFailedDetails {
  class: DbErrorClass;
  db_code: string | null;
  /** 1-based character in the statement the user wrote (PostgreSQL only). */
  position?: number;
}

/**
 * A database error while running a statement → QUERY_FAILED with the database's own message (plus PostgreSQL's hint,
 * which often names the right column) and `{ class, db_code }`.
 * `positionOffset`: characters the adapter put before the user's statement (the cursor declaration).
 */
export function queryFailed(
  dialect: Dialect,
  err: unknown,
  options: { password?: string | null; positionOffset?: number } = {},
): AppError {
  const e = asDriverError(err);
  let message = (e.message ?? 'the database reported an error').trim();
  if (dialect === 'sqlite') message = message.replace(/^SqliteError:\s*/, '');
  if (e.hint) message += ` (hint: ${e.hint})`;
  const details: QueryFailedDetails = { class: classifyDbError(dialect, err), db_code: dbErrorCode(dialect, err) };
  if (e.position !== undefined) {
    const position = Number(e.position) - (options.positionOffset ?? 0);
    if (position > 0) details.position = position;
  }
  return new AppError('QUERY_FAILED', redactSecret(message, options.password), details);
}

const TLS_CODE = /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ERR_TLS|ERR_SSL|HANDSHAKE_NO_SSL|EPROTO/;

/** A TLS failure while connecting, in words (the certificate, or a server without TLS); null when it is not one. */
export function tlsFailureMessage(err: unknown): string | null {
  const e = asDriverError(err);
  const code = String(e.code ?? '');
  const message = e.message ?? '';
  if (/does not support (SSL|secure)/i.test(message) || code === 'HANDSHAKE_NO_SSL_SUPPORT') {
    return 'the server does not accept TLS connections (ssl_mode asks for TLS; use "disable" only on a trusted network)';
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || /Hostname\/IP does not match/i.test(message)) {
    return `TLS: the server's certificate does not name this host (${message})`;
  }
  if (TLS_CODE.test(code)) return `TLS: the server's certificate could not be verified (${code}: ${message})`;
  return null;
}

/**
 * Whether an error at connect time came from a database server that answered (a login refused, a database
 * missing), rather than from the network or from something that does not speak the protocol.
 */
function isServerAnswer(dialect: Dialect, err: unknown): boolean {
  const e = err as { severity?: string; sqlMessage?: string; errno?: number; code?: unknown };
  if (dialect === 'postgres') return typeof e.severity === 'string' && typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code);
  if (dialect === 'mysql') return typeof e.sqlMessage === 'string' || (e.errno !== undefined && e.errno >= 1000 && e.errno < 2000);
  return false;
}

/**
 * A failure while opening a connection. A server that cannot be reached, refuses the connection, is not allowed
 * (CONNECTION_ALLOW_HOSTS / _DENY_HOSTS, the app's own storage), does not resolve or does not speak the protocol
 * all read the same, so the answer is no oracle of open, closed or filtered ports; the reason is only logged.
 * Logins refused, missing databases and TLS problems come from a real server and keep their message.
 */
export function connectFailed(target: ConnectionTarget, err: unknown, settings: { connectTimeoutMs: number }): { error: AppError; unreachable: boolean } {
  const tls = tlsFailureMessage(err);
  if (tls) return { error: new AppError('CONNECTION_FAILED', redactSecret(tls, target.password), { db_code: 'TLS' }), unreachable: false };
  if (isServerAnswer(target.dialect, err)) return { error: connectionFailed(target, err, settings), unreachable: false };
  const where = `${target.host ?? 'localhost'}:${target.port ?? (target.dialect === 'mysql' ? 3306 : 5432)}`;
  return {
    error: new AppError(
      'CONNECTION_FAILED',
      `could not connect to ${where}: the server is unreachable, not accepting connections, or not allowed from this server`,
      { db_code: null },
    ),
    unreachable: true,
  };
}

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE']);

/** Whether an error happened while reaching or logging in to the server (rather than while running a statement). */
export function isConnectionError(dialect: Dialect, err: unknown): boolean {
  const e = asDriverError(err);
  const code = String(e.code ?? '');
  if (NETWORK_CODES.has(code) || code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'PROTOCOL_CONNECTION_LOST') return true;
  if (/timeout expired|connection timeout|Connection terminated|ETIMEDOUT|connect ETIMEDOUT/i.test(e.message ?? '')) return true;
  if (dialect === 'postgres') return /^(08|28|3D|53300|57P03)/.test(code);
  if (dialect === 'mysql') return [1044, 1045, 1049, 1040, 1129, 1130, 1251, 2002, 2003, 2005, 2013].includes(e.errno ?? -1);
  return code === 'SQLITE_CANTOPEN' || code === 'SQLITE_NOTADB';
}

/**
 * A failure to reach or log in → CONNECTION_FAILED with a message that says what to check
 * ("could not reach 10.0.0.5:5432 within 5 s", "password authentication failed for user x", "database y does not exist").
 * Never includes the password.
 */
export function connectionFailed(
  target: ConnectionTarget,
  err: unknown,
  settings: { connectTimeoutMs: number },
): AppError {
  const e = asDriverError(err);
  const code = String(e.code ?? '');
  const where = `${target.host ?? 'localhost'}:${target.port ?? (target.dialect === 'mysql' ? 3306 : 5432)}`;
  const seconds = Math.round(settings.connectTimeoutMs / 100) / 10;
  let message: string;
  if (code === 'ECONNREFUSED') message = `could not connect to ${where}: connection refused (is the server running and listening there?)`;
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') message = `could not resolve the host name ${target.host}`;
  else if (
    code === 'ETIMEDOUT' ||
    code === 'EHOSTUNREACH' ||
    code === 'ENETUNREACH' ||
    /timeout expired|connection timeout|connect ETIMEDOUT|timed out/i.test(e.message ?? '')
  )
    message = `could not reach ${where} within ${seconds} s`;
  else if (code === 'ECONNRESET' || code === 'PROTOCOL_CONNECTION_LOST' || /Connection terminated/i.test(e.message ?? ''))
    message = `the server at ${where} closed the connection`;
  else if (target.dialect === 'mysql' && e.errno === 1045)
    message = `access denied for user ${target.user ?? ''}: wrong user name or password (${e.message})`;
  else if (target.dialect === 'mysql' && e.errno === 1049) message = `database ${target.database} does not exist`;
  else message = e.message ?? 'connection failed';
  return new AppError('CONNECTION_FAILED', redactSecret(message, target.password), {
    db_code: code || (e.errno !== undefined ? String(e.errno) : null),
  });
}
