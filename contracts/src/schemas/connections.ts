/**
 * Request bodies of /api/connections: the API validates with them (adding what only a server can check: the
 * SQL guard's denylist, X.509 parsing), the web app sends their input types.
 */
import { z } from 'zod';

/** An unquoted function name, optionally schema-qualified: `my_fn`, `public.my_fn`. */
export const ALLOWED_FUNCTION_PATTERN = /^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/;
export const MAX_ALLOWED_FUNCTIONS = 100;
export const SSL_MODES = ['disable', 'require', 'verify-ca', 'verify-full'] as const;
/** A CA bundle of a few certificates fits easily; anything larger is not a CA we should parse. */
export const SSL_CA_MAX_BYTES = 32 * 1024;
const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const host = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(255)
  .regex(/^[^\s/?#@]+$/, 'must be a host name or address without spaces, slashes or @');
const port = z.coerce.number().int('must be a whole number').min(1).max(65535, 'must be between 1 and 65535');
const identifier = z.string().trim().min(1, 'must not be empty').max(128);
const url = z.string().trim().min(1).max(2048);
// Empty means "no password" (trust / socket auth); the API seals it, never stores it in plaintext.
const password = z.string().max(1024);

/** Functions of their own the owner lets queries call (the SQL guard refuses every other non-built-in one). */
const allowedFunctions = z
  .array(
    z
      .string()
      .trim()
      .max(130)
      .superRefine((entry, ctx) => {
        if (!ALLOWED_FUNCTION_PATTERN.test(entry)) ctx.addIssue({ code: 'custom', message: `"${entry}" is not a function name (use name or schema.name, unquoted)` });
      }),
  )
  .max(MAX_ALLOWED_FUNCTIONS, `at most ${MAX_ALLOWED_FUNCTIONS} functions`);

const threshold = z.number().finite().positive('must be a positive number').max(1e15).nullable();

/** Review before run (not part of where the database is): the mode and the thresholds of "expensive"; null = default. */
const reviewSettingsFields = {
  review: z.enum(['never', 'expensive', 'always'], { error: 'must be one of never, expensive, always' }).optional(),
  review_thresholds: z.object({ cost: threshold.optional(), rows: threshold.optional(), scan_rows: threshold.optional() }).strict().optional(),
};
export type ReviewSettingsInput = { review?: 'never' | 'expensive' | 'always'; review_thresholds?: { cost?: number | null; rows?: number | null; scan_rows?: number | null } };

export const MAX_POLICY_ENTRIES = 1000;
export const MAX_POLICY_ENTRY_LENGTH = 300;

/** One table policy entry: `name`, `schema.name` or `schema.*` (`name` undefined); a part may be "quoted" to hold a dot. */
export interface TableEntry {
  schema?: string;
  name?: string;
}

/** The parts of an entry split at dots outside double quotes (`""` is a quote inside quotes); undefined when malformed. */
function splitEntryParts(entry: string): { text: string; quoted: boolean }[] | undefined {
  const parts: { text: string; quoted: boolean }[] = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < entry.length; i++) {
    const ch = entry[i]!;
    if (quoted) {
      if (ch === '"' && entry[i + 1] === '"') {
        current += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else current += ch;
    } else if (ch === '"') {
      if (current.trim() !== '') return undefined;
      current = '';
      quoted = true;
      wasQuoted = true;
    } else if (ch === '.') {
      parts.push({ text: wasQuoted ? current : current.trim(), quoted: wasQuoted });
      current = '';
      wasQuoted = false;
    } else {
      if (wasQuoted && ch.trim() !== '') return undefined;
      current += ch;
    }
  }
  if (quoted) return undefined;
  parts.push({ text: wasQuoted ? current : current.trim(), quoted: wasQuoted });
  return parts;
}

/** A table policy entry parsed, or why it is not one. */
export function parseTableEntry(entry: string): TableEntry | { problem: string } {
  const shown = `"${entry.slice(0, 80)}"`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(entry)) return { problem: `${shown} contains a control character` };
  const parts = splitEntryParts(entry.trim());
  if (!parts || parts.length > 2 || parts.some((part) => part.text === '')) {
    return { problem: `${shown} is not a table (use name, schema.name or schema.*; quote a part that holds a dot: "a.b")` };
  }
  const [first, second] = parts as [{ text: string; quoted: boolean }, { text: string; quoted: boolean } | undefined];
  if (!second) return first.text === '*' && !first.quoted ? { problem: `${shown}: a whole schema is written schema.*` } : { name: first.text };
  return second.text === '*' && !second.quoted ? { schema: first.text } : { schema: first.text, name: second.text };
}

/** Allowed or excluded tables: entries `name`, `schema.name`, `schema.*`, duplicates removed. */
const tableEntries = z
  .array(
    z
      .string()
      .trim()
      .max(MAX_POLICY_ENTRY_LENGTH, `an entry must be at most ${MAX_POLICY_ENTRY_LENGTH} characters`)
      .superRefine((entry, ctx) => {
        const parsed = parseTableEntry(entry);
        if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
      }),
  )
  .max(MAX_POLICY_ENTRIES, `at most ${MAX_POLICY_ENTRIES} entries`)
  .transform((entries) => [...new Set(entries)]);

/**
 * The connection's table policy and its own row cap and statement timeout (null: the instance's). The API also
 * checks the numbers against the instance's maxima (ROW_LIMIT_MAX, STATEMENT_TIMEOUT_MAX_MS).
 */
const policySettingsFields = {
  allowed_tables: tableEntries.optional(),
  excluded_tables: tableEntries.optional(),
  row_limit: z.number().int('must be a whole number').min(1, 'must be at least 1').max(1_000_000).nullable().optional(),
  statement_timeout_ms: z.number().int('must be a whole number').min(100, 'must be at least 100 ms').max(3_600_000).nullable().optional(),
};
export type PolicySettingsInput = { allowed_tables?: string[]; excluded_tables?: string[]; row_limit?: number | null; statement_timeout_ms?: number | null };

const sslMode = z.enum(SSL_MODES, { error: () => `must be one of ${SSL_MODES.join(', ')}` });
/** PEM certificates only, nothing between them; "" or null removes it. (The API also parses each one.) */
const sslCa = z
  .string()
  .max(SSL_CA_MAX_BYTES, `must be at most ${SSL_CA_MAX_BYTES / 1024} KB of PEM`)
  .nullable()
  .transform((pem, ctx) => {
    if (!pem?.trim()) return null;
    const blocks = pem.match(PEM_BLOCK) ?? [];
    if (blocks.length === 0 || pem.replace(PEM_BLOCK, '').trim()) {
      ctx.addIssue({ code: 'custom', message: 'must be PEM certificates (-----BEGIN CERTIFICATE----- …), nothing else' });
      return z.NEVER;
    }
    return blocks.join('\n') + '\n';
  });

/** The PEM blocks of a normalised `ssl_ca`. */
export function pemBlocks(pem: string): string[] {
  return pem.match(PEM_BLOCK) ?? [];
}

const tlsFields = { ssl: z.boolean().optional(), ssl_mode: sslMode.optional(), ssl_ca: sslCa.optional() };

const serverFields = {
  name: name.optional(),
  host,
  port: port.optional(),
  user: identifier,
  password: password.optional().nullable(),
  allowed_functions: allowedFunctions.optional(),
  ...reviewSettingsFields,
  ...policySettingsFields,
  ...tlsFields,
};

const postgresInput = z.object({ dialect: z.literal('postgres'), ...serverFields, database: identifier }).strict();
const mysqlInput = z.object({ dialect: z.literal('mysql'), ...serverFields, database: identifier.optional().nullable() }).strict();
const sqliteInput = z
  .object({
    dialect: z.literal('sqlite'),
    name: name.optional(),
    database: z.string().trim().min(1, 'must name a file under SQLITE_ROOT').max(1024),
    allowed_functions: allowedFunctions.optional(),
    ...reviewSettingsFields,
    ...policySettingsFields,
  })
  .strict();

const fieldsInput = z.discriminatedUnion('dialect', [postgresInput, mysqlInput, sqliteInput], {
  error: (issue) => (issue.code === 'invalid_union' ? 'dialect must be one of postgres, mysql, sqlite' : undefined),
});

const urlInput = z
  .object({ name: name.optional(), url, password: password.optional(), allowed_functions: allowedFunctions.optional(), ...reviewSettingsFields, ...policySettingsFields, ...tlsFields })
  .strict();

/** POST /api/connections: a connection as the user describes it, by discrete fields or by a URL. */
export const createConnectionSchema = z.union([urlInput, fieldsInput], {
  error: () => 'give either {name, url} or {name, dialect, host, port, database, user, password} (sqlite: {name, dialect:"sqlite", database})',
});
export type CreateConnectionRequest = z.input<typeof createConnectionSchema>;
export type CreateConnectionInput = z.output<typeof createConnectionSchema>;

/** PATCH /api/connections/:id: any create field. Password: absent = unchanged, null or "" = remove. */
export const updateConnectionSchema = z
  .object({
    name: name.optional(),
    url: url.optional(),
    dialect: z.enum(['postgres', 'mysql', 'sqlite']).optional(),
    host: host.optional(),
    port: port.optional().nullable(),
    database: z.string().trim().max(1024).optional().nullable(),
    user: identifier.optional().nullable(),
    password: password.optional().nullable(),
    allowed_functions: allowedFunctions.optional(),
    ...reviewSettingsFields,
    ...policySettingsFields,
    ...tlsFields,
  })
  .strict();
export type UpdateConnectionRequest = z.input<typeof updateConnectionSchema>;
export type UpdateConnectionInput = z.output<typeof updateConnectionSchema>;

/** POST /api/connections/:id/query: read-only SQL run directly. */
export const querySchema = z
  .object({
    sql: z.string().trim().min(1, 'must not be empty').max(100_000, 'must be at most 100,000 characters'),
    limit: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();
export type QueryRequest = z.input<typeof querySchema>;

/** GET /api/connections/:id/schema?refresh=true: read the schema again rather than from the cache. */
export const schemaQuerySchema = z.object({ refresh: z.enum(['true', 'false', '1', '0']).optional() });
