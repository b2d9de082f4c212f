import { z } from 'zod';
import type { Dialect } from '@aigis/contracts';
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
  ssl: boolean;
}

export class ConnectionInputError extends Error {}

/** Parses postgres://, postgresql://, mysql://, mariadb:// and sqlite: URLs (user and password percent-decoded). */
export function parseConnectionUrl(url: string): Omit<ConnectionSpec, 'name'> {
  const sqlite = /^sqlite:(\/\/)?(.+)$/i.exec(url);
  if (sqlite) return { dialect: 'sqlite', host: null, port: null, database: sqlite[2], user: null, password: null, ssl: false };
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
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || null;
  if (dialect === 'postgres' && !database) throw new ConnectionInputError('url: the database name is missing (…/database)');
  const params = parsed.searchParams;
  const sslMode = (params.get('sslmode') ?? params.get('ssl-mode') ?? '').toLowerCase();
  const ssl = params.get('ssl') === 'true' || ['require', 'verify-ca', 'verify-full', 'required', 'verify_ca', 'verify_identity'].includes(sslMode);
  return {
    dialect,
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : DEFAULT_PORT[dialect],
    database,
    user: parsed.username ? decodeURIComponent(parsed.username) : null,
    password: parsed.password ? decodeURIComponent(parsed.password) : null,
    ssl,
  };
}

export function specFromCreate(input: CreateConnectionInput): ConnectionSpec {
  if ('url' in input) {
    const fromUrl = parseConnectionUrl(input.url);
    if (fromUrl.dialect !== 'sqlite' && !fromUrl.user) throw new ConnectionInputError('url: the user name is missing (postgres://user@host/db)');
    return {
      ...fromUrl,
      password: input.password ?? fromUrl.password,
      ssl: input.ssl ?? fromUrl.ssl,
      name: input.name ?? defaultName(fromUrl),
    };
  }
  if (input.dialect === 'sqlite') {
    return { name: input.name ?? defaultName(input), dialect: 'sqlite', host: null, port: null, database: input.database, user: null, password: null, ssl: false };
  }
  return {
    name: input.name ?? defaultName(input),
    dialect: input.dialect,
    host: input.host,
    port: input.port ?? DEFAULT_PORT[input.dialect],
    database: input.database ?? null,
    user: input.user,
    password: input.password || null,
    ssl: input.ssl ?? false,
  };
}

/** Applies a PATCH to the current spec; `password: undefined` in the result means "keep the sealed one". */
export function specFromUpdate(current: Omit<ConnectionSpec, 'password'>, patch: UpdateConnectionInput): ConnectionSpec & { passwordChanged: boolean } {
  let next: Omit<ConnectionSpec, 'password'> & { password?: string | null } = { ...current };
  if (patch.url) {
    const fromUrl = parseConnectionUrl(patch.url);
    next = { ...next, ...fromUrl, password: fromUrl.password ?? undefined };
    if (!fromUrl.password) delete next.password;
  }
  for (const key of ['dialect', 'host', 'port', 'database', 'user', 'ssl', 'name'] as const) {
    if (patch[key] !== undefined) (next as Record<string, unknown>)[key] = patch[key];
  }
  if (patch.dialect && patch.dialect !== current.dialect && patch.port === undefined && patch.dialect !== 'sqlite') {
    next.port = DEFAULT_PORT[patch.dialect];
  }
  const passwordChanged = patch.password !== undefined || next.password !== undefined;
  const password = patch.password !== undefined ? patch.password || null : (next.password ?? null);
  if (next.dialect === 'sqlite') {
    Object.assign(next, { host: null, port: null, user: null, ssl: false });
  } else {
    if (!next.host) throw new ConnectionInputError('host: must not be empty');
    if (!next.user) throw new ConnectionInputError('user: must not be empty');
    if (next.dialect === 'postgres' && !next.database) throw new ConnectionInputError('database: must not be empty');
  }
  if (next.dialect === 'sqlite' && !next.database) throw new ConnectionInputError('database: must name a file under SQLITE_ROOT');
  return { ...(next as Omit<ConnectionSpec, 'password'>), password, passwordChanged };
}

function defaultName(spec: { dialect: Dialect; host?: string | null; database?: string | null }): string {
  const db = spec.database ? spec.database.split('/').pop() : null;
  return spec.dialect === 'sqlite' ? (db ?? 'SQLite') : `${db ?? spec.dialect} on ${spec.host}`;
}
