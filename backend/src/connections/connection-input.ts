import crypto from 'node:crypto';
import { z } from 'zod';
import type { Dialect, SslMode } from '@aigis/contracts';
import { allowedFunctionProblem, MAX_ALLOWED_FUNCTIONS } from '../sql-guard/allowed-functions.js';

const DEFAULT_PORT: Record<Exclude<Dialect, 'sqlite'>, number> = { postgres: 5432, mysql: 3306 };

const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const host = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255)
  .regex(/^[^\s/?#@]+$/, 'must be a host name or address without spaces, slashes or @');
const port = z.coerce.number().int('must be a whole number').min(1).max(65535, 'must be between 1 and 65535');
const identifier = z.string().trim().min(1, 'must not be empty').max(128);
/** Functions of their own the owner lets queries call (the SQL guard refuses every other non-built-in one). */
const allowedFunctions = z
  .array(
    z
      .string()
      .trim()
      .max(130)
      .superRefine((entry, ctx) => {
        const problem = allowedFunctionProblem(entry);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      }),
  )
  .max(MAX_ALLOWED_FUNCTIONS, `at most ${MAX_ALLOWED_FUNCTIONS} functions`);

const threshold = z.number().finite().positive('must be a positive number').max(1e15).nullable();

/** Review before run (not part of where the database is): the mode and the thresholds of "expensive"; null = default. */
export const reviewSettingsFields = {
  review: z.enum(['never', 'expensive', 'always'], { error: 'must be one of never, expensive, always' }).optional(),
  review_thresholds: z.object({ cost: threshold.optional(), rows: threshold.optional(), scan_rows: threshold.optional() }).strict().optional(),
};
export type ReviewSettingsInput = { review?: 'never' | 'expensive' | 'always'; review_thresholds?: { cost?: number | null; rows?: number | null; scan_rows?: number | null } };
export const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
/** A CA bundle of a few certificates fits easily; anything larger is not a CA we should parse. */
export const SSL_CA_MAX_BYTES = 32 * 1024;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

const sslMode = z.enum(SSL_MODES, { error: () => `must be one of ${SSL_MODES.join(', ')}` });
/** PEM certificates only (every block must parse as X.509); "" or null removes it. */
const sslCa = z
  .string()
  .max(SSL_CA_MAX_BYTES, `must be at most ${SSL_CA_MAX_BYTES / 1024} KB of PEM`)
  .nullable()
  .transform((pem, ctx) => {
    if (!pem?.trim()) return null;
    const blocks = pem.match(PEM_BLOCK) ?? [];
    const rest = pem.replace(PEM_BLOCK, '').trim();
    if (blocks.length === 0 || rest) {
      ctx.addIssue({ code: 'custom', message: 'must be PEM certificates (-----BEGIN CERTIFICATE----- …), nothing else' });
      return z.NEVER;
    }
    for (const block of blocks) {
      try {
        new crypto.X509Certificate(block);
      } catch {
        ctx.addIssue({ code: 'custom', message: 'contains a certificate that does not parse' });
        return z.NEVER;
      }
    }
    return blocks.join('\n') + '\n';
  });

const serverFields = {
  name: name.optional(),
  host,
  port: port.optional(),
  user: identifier,
  // Empty means "no password" (trust / socket auth); it is sealed, never stored in plaintext.
  password: z.string().max(1024).optional().nullable(),
  ssl: z.boolean().optional(),
  allowed_functions: allowedFunctions.optional(),
  ...reviewSettingsFields,
  ssl_mode: sslMode.optional(),
  ssl_ca: sslCa.optional(),
};

const postgresInput = z.object({ dialect: z.literal('postgres'), ...serverFields, database: identifier }).strict();
const mysqlInput = z
  .object({ dialect: z.literal('mysql'), ...serverFields, database: identifier.optional().nullable() })
  .strict();
const sqliteInput = z
  .object({
    dialect: z.literal('sqlite'),
    name: name.optional(),
    database: z.string().trim().min(1, 'must name a file under SQLITE_ROOT').max(1024),
    allowed_functions: allowedFunctions.optional(),
    ...reviewSettingsFields,
  })
  .strict();

const fieldsInput = z.discriminatedUnion('dialect', [postgresInput, mysqlInput, sqliteInput], {
  error: (issue) => (issue.code === 'invalid_union' ? 'dialect must be one of postgres, mysql, sqlite' : undefined),
});

const urlInput = z
  .object({
    name: name.optional(),
    url: z.string().trim().min(1).max(2048),
    password: z.string().max(1024).optional(),
    ssl: z.boolean().optional(),
    allowed_functions: allowedFunctions.optional(),
    ...reviewSettingsFields,
    ssl_mode: sslMode.optional(),
    ssl_ca: sslCa.optional(),
  })
  .strict();

/** A connection as the user describes it: discrete fields, or a URL. */
export const createConnectionSchema = z.union([urlInput, fieldsInput], {
  error: () => 'give either {name, url} or {name, dialect, host, port, database, user, password} (sqlite: {name, dialect:"sqlite", database})',
});
export type CreateConnectionInput = z.infer<typeof createConnectionSchema>;

/** PATCH: any create field. Password: absent = unchanged, null or "" = remove. */
export const updateConnectionSchema = z
  .object({
    name: name.optional(),
    url: z.string().trim().min(1).max(2048).optional(),
    dialect: z.enum(['postgres', 'mysql', 'sqlite']).optional(),
    host: host.optional(),
    port: port.optional().nullable(),
    database: z.string().trim().max(1024).optional().nullable(),
    user: identifier.optional().nullable(),
    password: z.string().max(1024).optional().nullable(),
    ssl: z.boolean().optional(),
    allowed_functions: allowedFunctions.optional(),
    ...reviewSettingsFields,
    ssl_mode: sslMode.optional(),
    ssl_ca: sslCa.optional(),
  })
  .strict();
export type UpdateConnectionInput = z.infer<typeof updateConnectionSchema>;

/** The normalised description every other part works with. */
export interface ConnectionSpec {
  name: string;
  dialect: Dialect;
  host: string | null;
  port: number | null;
  database: string | null;
  user: string | null;
  password: string | null;
  sslMode: SslMode;
  /** PEM, for verify-ca / verify-full. */
  sslCa: string | null;
}

export class ConnectionInputError extends Error {}

/** A percent-encoded part of a URL; a malformed escape (`%zz`) is the user's input error, not a crash. */
function decodeUrlPart(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ConnectionInputError(`url: the ${what} has a malformed percent-escape (write % as %25)`);
  }
}

/** Parses postgres://, postgresql://, mysql://, mariadb:// and sqlite: URLs (user and password percent-decoded). */
export function parseConnectionUrl(url: string): Omit<ConnectionSpec, 'name'> {
  const sqlite = /^sqlite:(\/\/)?(.+)$/i.exec(url);
  if (sqlite) return { dialect: 'sqlite', host: null, port: null, database: sqlite[2], user: null, password: null, sslMode: 'disable', sslCa: null };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConnectionInputError('url: not a valid URL (example: postgres://user:password@host:5432/database)');
  }
  const scheme = parsed.protocol.replace(/:$/, '').toLowerCase();
  const dialect: Dialect | undefined =
    scheme === 'postgres' || scheme === 'postgresql' ? 'postgres' : scheme === 'mysql' || scheme === 'mariadb' ? 'mysql' : undefined;
  if (!dialect) throw new ConnectionInputError(`url: unsupported scheme "${scheme}:" (use postgres://, mysql://, mariadb:// or sqlite:)`);
  if (!parsed.hostname) throw new ConnectionInputError('url: the host is missing');
  const database = decodeUrlPart(parsed.pathname.replace(/^\//, ''), 'database') || null;
  if (dialect === 'postgres' && !database) throw new ConnectionInputError('url: the database name is missing (…/database)');
  const sslMode = sslModeFromUrl(parsed.searchParams);
  return {
    dialect,
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : DEFAULT_PORT[dialect],
    database,
    user: parsed.username ? decodeUrlPart(parsed.username, 'user') : null,
    password: parsed.password ? decodeUrlPart(parsed.password, 'password') : null,
    sslMode,
    sslCa: null,
  };
}

// libpq's sslmode and MySQL's ssl-mode names, mapped to ours.
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

/**
 * The TLS mode a URL asks for. "prefer"/"allow" (TLS if the server offers it) cannot be honoured safely, and a
 * certificate file named in the URL would be read from the Aigis server's disk: both are refused, clearly.
 */
function sslModeFromUrl(params: URLSearchParams): SslMode {
  for (const key of ['sslrootcert', 'sslcert', 'sslkey', 'ssl-ca', 'ssl-cert', 'ssl-key']) {
    const value = params.get(key);
    if (value !== null && !(key === 'sslrootcert' && value === 'system')) {
      throw new ConnectionInputError(`url: ${key} is not supported (files are not read from the server); paste the CA certificate into ssl_ca instead`);
    }
  }
  const raw = (params.get('sslmode') ?? params.get('ssl-mode') ?? params.get('ssl_mode') ?? '').toLowerCase();
  if (raw) {
    const mode = URL_SSL_MODES[raw];
    if (!mode) {
      throw new ConnectionInputError(`url: sslmode=${raw} is not supported; use disable, require, verify-ca or verify-full (prefer/allow would fall back to plain text silently)`);
    }
    return mode;
  }
  const ssl = params.get('ssl')?.toLowerCase();
  return ssl === 'true' || ssl === '1' ? 'require' : 'disable';
}

/** The mode from the explicit fields: ssl_mode wins; `ssl: true` alone means require. */
function explicitSslMode(input: { ssl?: boolean; ssl_mode?: SslMode }): SslMode | undefined {
  if (input.ssl_mode) return input.ssl_mode;
  if (input.ssl !== undefined) return input.ssl ? 'require' : 'disable';
  return undefined;
}

export function specFromCreate(input: CreateConnectionInput): ConnectionSpec {
  if ('url' in input) {
    const fromUrl = parseConnectionUrl(input.url);
    if (fromUrl.dialect !== 'sqlite' && !fromUrl.user) throw new ConnectionInputError('url: the user name is missing (postgres://user@host/db)');
    return {
      ...fromUrl,
      password: input.password ?? fromUrl.password,
      sslMode: explicitSslMode(input) ?? fromUrl.sslMode,
      sslCa: input.ssl_ca ?? null,
      name: input.name ?? defaultName(fromUrl),
    };
  }
  if (input.dialect === 'sqlite') {
    return { name: input.name ?? defaultName(input), dialect: 'sqlite', host: null, port: null, database: input.database, user: null, password: null, sslMode: 'disable', sslCa: null };
  }
  return {
    name: input.name ?? defaultName(input),
    dialect: input.dialect,
    host: input.host,
    port: input.port ?? DEFAULT_PORT[input.dialect],
    database: input.database ?? null,
    user: input.user,
    password: input.password || null,
    sslMode: explicitSslMode(input) ?? 'disable',
    sslCa: input.ssl_ca ?? null,
  };
}

const SSL_STRENGTH: Record<SslMode, number> = { disable: 0, require: 1, 'verify-ca': 2, 'verify-full': 3 };

/**
 * Whether a password stored for `before` may be sent with `after`: only to the same server, as the same user,
 * over TLS at least as strict (a verified connection whose CA changes counts as weaker: the new CA may be anyone's).
 */
export function sameCredentialScope(
  before: Pick<ConnectionSpec, 'dialect' | 'host' | 'port' | 'database' | 'user' | 'sslMode' | 'sslCa'>,
  after: Pick<ConnectionSpec, 'dialect' | 'host' | 'port' | 'database' | 'user' | 'sslMode' | 'sslCa'>,
): boolean {
  if (before.dialect !== after.dialect || before.host !== after.host || before.port !== after.port) return false;
  if ((before.database ?? null) !== (after.database ?? null) || (before.user ?? null) !== (after.user ?? null)) return false;
  if (SSL_STRENGTH[after.sslMode] < SSL_STRENGTH[before.sslMode]) return false;
  if (SSL_STRENGTH[before.sslMode] >= 2 && (before.sslCa ?? null) !== (after.sslCa ?? null)) return false;
  return true;
}

/**
 * Applies a PATCH to the current spec. `passwordChanged: false` means "keep the sealed one". A connection moved to
 * another server, database or user, or to weaker TLS, without a new password loses the stored one
 * (`passwordDropped`): the old password is never sent anywhere it was not meant for.
 */
export function specFromUpdate(
  current: Omit<ConnectionSpec, 'password'>,
  patch: UpdateConnectionInput,
): ConnectionSpec & { passwordChanged: boolean; passwordDropped: boolean } {
  let next: Omit<ConnectionSpec, 'password'> & { password?: string | null } = { ...current };
  if (patch.url) {
    const fromUrl = parseConnectionUrl(patch.url);
    next = { ...next, ...fromUrl, password: fromUrl.password ?? undefined };
    if (!fromUrl.password) delete next.password;
  }
  for (const key of ['dialect', 'host', 'port', 'database', 'user', 'name'] as const) {
    if (patch[key] !== undefined) (next as Record<string, unknown>)[key] = patch[key];
  }
  const mode = explicitSslMode(patch);
  if (mode) next.sslMode = mode;
  if (patch.ssl_ca !== undefined) next.sslCa = patch.ssl_ca;
  if (patch.dialect && patch.dialect !== current.dialect && patch.port === undefined && patch.dialect !== 'sqlite') {
    next.port = DEFAULT_PORT[patch.dialect];
  }
  let passwordChanged = patch.password !== undefined || next.password !== undefined;
  const password = patch.password !== undefined ? patch.password || null : (next.password ?? null);
  if (next.dialect === 'sqlite') {
    Object.assign(next, { host: null, port: null, user: null, sslMode: 'disable', sslCa: null });
  } else {
    if (!next.host) throw new ConnectionInputError('host: must not be empty');
    if (!next.user) throw new ConnectionInputError('user: must not be empty');
    if (next.dialect === 'postgres' && !next.database) throw new ConnectionInputError('database: must not be empty');
  }
  if (next.dialect === 'sqlite' && !next.database) throw new ConnectionInputError('database: must name a file under SQLITE_ROOT');
  const passwordDropped = !passwordChanged && !sameCredentialScope(current, next as Omit<ConnectionSpec, 'password'>);
  if (passwordDropped) passwordChanged = true;
  return { ...(next as Omit<ConnectionSpec, 'password'>), password, passwordChanged, passwordDropped };
}

function defaultName(spec: { dialect: Dialect; host?: string | null; database?: string | null }): string {
  const db = spec.database ? spec.database.split('/').pop() : null;
  return spec.dialect === 'sqlite' ? (db ?? 'SQLite') : `${db ?? spec.dialect} on ${spec.host}`;
}
