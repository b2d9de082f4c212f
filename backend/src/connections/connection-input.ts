import crypto from 'node:crypto';
import type { z } from 'zod';
import {
  type CreateConnectionInput,
  createConnectionSchema,
  DEFAULT_PORTS,
  type Dialect,
  parseConnectionUrl,
  type ParsedConnectionUrl,
  pemBlocks,
  type SslMode,
  type UpdateConnectionInput,
  updateConnectionSchema,
} from '@aigis/contracts';
import { allowedFunctionProblem } from '../sql-guard/allowed-functions.js';

/**
 * What only the server can check beyond the shared request schema: functions the SQL guard refuses whatever the
 * owner lists (saying so when the list is saved is kinder than a refusal at query time), and certificates that parse.
 */
function serverChecks(input: { allowed_functions?: string[]; ssl_ca?: string | null }, ctx: z.RefinementCtx): void {
  input.allowed_functions?.forEach((entry, index) => {
    const problem = allowedFunctionProblem(entry);
    if (problem) ctx.addIssue({ code: 'custom', path: ['allowed_functions', index], message: problem });
  });
  if (!input.ssl_ca) return;
  for (const block of pemBlocks(input.ssl_ca)) {
    try {
      new crypto.X509Certificate(block);
    } catch {
      ctx.addIssue({ code: 'custom', path: ['ssl_ca'], message: 'contains a certificate that does not parse' });
      return;
    }
  }
}

/** The bodies of POST and PATCH /api/connections as the API validates them. */
export const createConnectionBody = createConnectionSchema.superRefine(serverChecks);
export const updateConnectionBody = updateConnectionSchema.superRefine(serverChecks);

/** The normalised description every other part works with: what a URL says, a name and a CA. */
export interface ConnectionSpec extends ParsedConnectionUrl {
  name: string;
  /** PEM, for verify-ca / verify-full. */
  sslCa: string | null;
}

export class ConnectionInputError extends Error {}

/**
 * What a connection URL says (the parser the web app uses too), or a clear refusal. PostgreSQL always names a
 * database; a user is checked where it is required (creating), since a PATCH may give it separately.
 */
export function specFromUrl(url: string): Omit<ConnectionSpec, 'name'> {
  const parsed = parseConnectionUrl(url);
  if (!parsed.ok) throw new ConnectionInputError(`url: ${parsed.error}`);
  if (parsed.value.dialect === 'postgres' && !parsed.value.database) throw new ConnectionInputError('url: the database name is missing (…/database)');
  return { ...parsed.value, sslCa: null };
}

/** The mode from the explicit fields: ssl_mode wins; `ssl: true` alone means require. */
function explicitSslMode(input: { ssl?: boolean; ssl_mode?: SslMode }): SslMode | undefined {
  if (input.ssl_mode) return input.ssl_mode;
  if (input.ssl !== undefined) return input.ssl ? 'require' : 'disable';
  return undefined;
}

export function specFromCreate(input: CreateConnectionInput): ConnectionSpec {
  if ('url' in input) {
    const fromUrl = specFromUrl(input.url);
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
    port: input.port ?? DEFAULT_PORTS[input.dialect],
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
    const fromUrl = specFromUrl(patch.url);
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
    next.port = DEFAULT_PORTS[patch.dialect];
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
