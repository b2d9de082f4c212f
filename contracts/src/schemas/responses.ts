/**
 * The success bodies of the HTTP API as zod schemas, each checked against its TypeScript type (`satisfies`), so the
 * OpenAPI document (`/api/docs`) describes exactly what the code returns and a type change fails the build here.
 */
import { z } from 'zod';
import type {
  AdminUser,
  AuthResponse,
  Connection,
  ConnectionTestResult,
  CreatedInvite,
  InstanceSettings,
  Invite,
  ModelInfo,
  ProviderSetup,
  QueryResponse,
  RegisterResponse,
  RegistrationInfo,
  SchemaResponse,
  SessionResponse,
  SessionStatus,
  SqliteFilesResponse,
  SqliteGrant,
  ThreadConnectionResponse,
  ThreadDetail,
  ThreadModelResponse,
  ThreadState,
  ThreadSummary,
  User,
} from '../api.js';
import { LEARNING_CATEGORIES, type ConnectionKnowledge, type ExampleQuery, type GlossaryEntry, type KnowledgeImportResult, type KnowledgeInstructions, type Learning, type TableNote } from '../knowledge.js';
import type { ReviewProposal } from '../stream-events.js';

const dialect = z.enum(['postgres', 'mysql', 'sqlite']);
const reviewMode = z.enum(['never', 'expensive', 'always']);
const role = z.enum(['admin', 'member']);
const registrationMode = z.enum(['open', 'invite', 'closed']);
const markdownMode = z.enum(['full', 'no_samples', 'columns', 'compact', 'selected']);
const row = z.record(z.string(), z.unknown());

export const healthResponseSchema = z.object({ status: z.literal('ok') }) satisfies z.ZodType<{ status: 'ok' }>;

export const userSchema = z.object({ id: z.string(), email: z.string(), role }) satisfies z.ZodType<User>;
export const registerResponseSchema = z.object({ status: z.literal('ok') }) satisfies z.ZodType<RegisterResponse>;
export const loginResponseSchema = z.union([z.object({ token: z.string(), user: userSchema }), z.object({ user: userSchema })]) satisfies z.ZodType<AuthResponse | SessionResponse>;
export const sessionStatusSchema = z.object({ user: userSchema.nullable() }) satisfies z.ZodType<SessionStatus>;
export const registrationInfoSchema = z.object({ mode: registrationMode, first_account: z.boolean() }) satisfies z.ZodType<RegistrationInfo>;

export const adminUserSchema = z.object({ id: z.string(), email: z.string(), role, disabled: z.boolean(), created_at: z.string() }) satisfies z.ZodType<AdminUser>;
export const inviteSchema = z.object({
  id: z.string(),
  status: z.enum(['pending', 'used', 'expired', 'revoked']),
  created_at: z.string(),
  expires_at: z.string(),
  used_at: z.string().nullable(),
  used_by_email: z.string().nullable(),
}) satisfies z.ZodType<Invite>;
export const createdInviteSchema = z.object({ invite: inviteSchema, token: z.string(), path: z.string() }) satisfies z.ZodType<CreatedInvite>;
export const instanceSettingsSchema = z.object({
  registration: z.object({ mode: registrationMode, source: z.enum(['environment', 'admin', 'default']) }),
  mode: z.enum(['embedded', 'server']),
  trust_proxy: z.boolean(),
  sqlite_root: z.string(),
  limits: z.object({
    token_ttl_hours: z.number(),
    login_max_failures: z.number(),
    login_window_minutes: z.number(),
    registrations_per_hour: z.number(),
    row_limit: z.number(),
    row_limit_max: z.number(),
    statement_timeout_ms: z.number(),
  }),
}) satisfies z.ZodType<InstanceSettings>;
export const sqliteGrantSchema = z.object({ id: z.string(), user_id: z.string(), user_email: z.string(), path: z.string(), created_at: z.string() }) satisfies z.ZodType<SqliteGrant>;

const elevatedPrivilege = z.enum(['superuser', 'read_server_files', 'write_server_files', 'run_server_programs', 'grant_privileges']);
export const connectionSchema = z.object({
  id: z.string(),
  name: z.string(),
  dialect,
  host: z.string().nullable(),
  port: z.number().nullable(),
  database: z.string().nullable(),
  user: z.string().nullable(),
  ssl: z.boolean(),
  ssl_mode: z.enum(['disable', 'require', 'verify-ca', 'verify-full']),
  ssl_ca: z.string().nullable(),
  has_password: z.boolean(),
  elevated_privileges: z.array(elevatedPrivilege).nullable(),
  is_demo: z.boolean(),
  allowed_functions: z.array(z.string()),
  allowed_tables: z.array(z.string()),
  excluded_tables: z.array(z.string()),
  row_limit: z.number().nullable(),
  statement_timeout_ms: z.number().nullable(),
  review: reviewMode,
  review_thresholds: z.object({ cost: z.number(), rows: z.number(), scan_rows: z.number() }),
  created_at: z.string(),
  updated_at: z.string(),
}) satisfies z.ZodType<Connection>;
export const connectionTestResultSchema = z.object({
  ok: z.literal(true),
  server_version: z.string(),
  latency_ms: z.number(),
  read_only_role: z.boolean(),
  elevated_privileges: z.array(elevatedPrivilege),
  warnings: z.array(z.string()),
}) satisfies z.ZodType<ConnectionTestResult>;
export const sqliteFilesResponseSchema = z.object({ root: z.string(), folder: z.string(), files: z.array(z.object({ path: z.string(), size_bytes: z.number() })) }) satisfies z.ZodType<SqliteFilesResponse>;
export const schemaResponseSchema = z.object({
  dialect,
  tables: z.array(
    z.object({
      schema: z.string().nullable(),
      name: z.string(),
      kind: z.enum(['table', 'view']),
      comment: z.string().nullable(),
      columns: z.array(z.object({ name: z.string(), type: z.string(), nullable: z.boolean(), default: z.string().nullable(), primary_key: z.boolean(), comment: z.string().nullable() })),
      foreign_keys: z.array(z.object({ name: z.string().nullable(), columns: z.array(z.string()), referenced_schema: z.string().nullable(), referenced_table: z.string(), referenced_columns: z.array(z.string()) })),
      row_estimate: z.number().nullable(),
      sample_rows: z.array(row),
      sample_error: z.string().optional(),
    }),
  ),
  markdown: z.string(),
  markdown_mode: markdownMode,
  introspected_at: z.string(),
  elapsed_ms: z.number(),
  catalog_queries: z.number(),
}) satisfies z.ZodType<SchemaResponse>;
export const queryResponseSchema = z.object({
  columns: z.array(z.string()),
  rows: z.array(row),
  row_count: z.number(),
  truncated: z.boolean(),
  truncated_reason: z.enum(['row_limit', 'result_bytes', 'turn_store_bytes']).optional(),
  elapsed_ms: z.number(),
  sql_executed: z.string(),
}) satisfies z.ZodType<QueryResponse>;

export const modelInfoSchema = z.object({
  name: z.string(),
  provider: z.string(),
  model_id: z.string(),
  available: z.boolean(),
  reason: z.string().optional(),
  aliases: z.array(z.string()),
  capabilities: z.object({ tool_calling: z.boolean(), context_window: z.number().nullable() }),
  last_score: z
    .object({ benchmark: z.string(), score: z.number(), correct: z.number(), questions: z.number(), examples: z.enum(['on', 'off']), date: z.string() })
    .nullable()
    .optional(),
}) satisfies z.ZodType<ModelInfo>;
export const providerSetupSchema = z.object({ provider: z.string(), label: z.string(), configured: z.boolean(), env: z.array(z.string()), hint: z.string() }) satisfies z.ZodType<ProviderSetup>;

export const threadSummarySchema = z.object({
  thread_id: z.string(),
  title: z.string(),
  model: z.string().nullable(),
  connection_id: z.string().nullable(),
  review: reviewMode.nullable(),
  knowledge_examples: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
}) satisfies z.ZodType<ThreadSummary>;
const threadMessageSchema = z.object({
  id: z.string(),
  role: z.enum(['user', 'assistant', 'tool']),
  content: z.string(),
  tool_calls: z.array(z.object({ id: z.string(), name: z.string(), args: row })).optional(),
  tool_call_id: z.string().optional(),
  tool_name: z.string().optional(),
  result: z.unknown().optional(),
  stopped: z.boolean().optional(),
  unreadable: z.boolean().optional(),
});
const reviewProposalSchema = z.object({
  id: z.string(),
  tool_call_id: z.string(),
  sql: z.string(),
  dialect,
  estimate: z.object({ cost: z.number().nullable(), rows: z.number().nullable(), scans: z.array(z.object({ table: z.string(), rows: z.number().nullable() })) }).nullable(),
  reason: z.string(),
  mode: z.enum(['always', 'expensive']),
  direct: z.boolean(),
}) satisfies z.ZodType<ReviewProposal>;
export const threadDetailSchema = threadSummarySchema.extend({ messages: z.array(threadMessageSchema), pending_review: reviewProposalSchema.nullable() }) satisfies z.ZodType<ThreadDetail>;
export const threadModelResponseSchema = z.object({
  thread_id: z.string(),
  model: z.string().nullable(),
  source: z.enum(['thread', 'default']).nullable(),
  models: z.record(z.string(), z.boolean()),
}) satisfies z.ZodType<ThreadModelResponse>;
export const threadConnectionResponseSchema = z.object({ thread_id: z.string(), connection_id: z.string(), tables: z.number(), markdown_mode: markdownMode }) satisfies z.ZodType<ThreadConnectionResponse>;
export const threadStateSchema = z.object({
  messages: z.array(threadMessageSchema),
  model_name: z.string().nullable(),
  db_schema: z.string().nullable(),
  connection: z.object({ user_id: z.string(), connection_id: z.string() }).nullable(),
  sql_result: z.object({ sql: z.string(), columns: z.array(z.string()), rows: z.array(row), row_count: z.number(), truncated: z.boolean() }).nullable(),
  pending_review: reviewProposalSchema.nullable(),
}) satisfies z.ZodType<ThreadState>;

export const knowledgeInstructionsSchema = z.object({ text: z.string(), updated_at: z.string().nullable() }) satisfies z.ZodType<KnowledgeInstructions>;
export const glossaryEntryResponseSchema = z.object({
  id: z.string(),
  term: z.string(),
  definition: z.string(),
  sql: z.string().nullable(),
  unit: z.string().nullable(),
  caveats: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
}) satisfies z.ZodType<GlossaryEntry>;
export const tableNoteResponseSchema = z.object({
  id: z.string(),
  schema: z.string().nullable(),
  table: z.string(),
  description: z.string().nullable(),
  columns: z.record(z.string(), z.string()),
  data_quality: z.array(z.string()),
  updated_at: z.string(),
}) satisfies z.ZodType<TableNote>;
export const exampleQuerySchema = z.object({
  id: z.string(),
  question: z.string(),
  sql: z.string(),
  source: z.enum(['manual', 'answer', 'import']),
  thread_id: z.string().nullable(),
  verification: z.object({ row_count: z.number(), columns: z.array(z.string()), elapsed_ms: z.number(), verified_at: z.string() }),
  created_at: z.string(),
  updated_at: z.string(),
}) satisfies z.ZodType<ExampleQuery>;
export const exampleSearchResultSchema = z.object({ id: z.string(), question: z.string(), sql: z.string(), score: z.number() });
export const learningResponseSchema = z.object({
  id: z.string(),
  category: z.enum(LEARNING_CATEGORIES),
  tables: z.array(z.string()),
  failed_sql: z.string().nullable(),
  working_sql: z.string(),
  lesson: z.string(),
  confidence: z.number(),
  thread_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
}) satisfies z.ZodType<Learning>;
export const connectionKnowledgeSchema = z.object({
  connection_id: z.string(),
  instructions: knowledgeInstructionsSchema,
  glossary: z.array(glossaryEntryResponseSchema),
  tables: z.array(tableNoteResponseSchema),
  examples: z.array(exampleQuerySchema),
  learnings: z.array(learningResponseSchema),
}) satisfies z.ZodType<ConnectionKnowledge>;
export const knowledgeImportResultSchema = z.object({
  mode: z.enum(['merge', 'replace']),
  instructions: z.enum(['kept', 'replaced', 'appended']),
  glossary: z.object({ added: z.number(), updated: z.number() }),
  tables: z.object({ added: z.number(), updated: z.number() }),
  examples: z.object({ added: z.number(), skipped: z.number(), rejected: z.number() }),
  learnings: z.object({ added: z.number(), merged: z.number() }),
  rejected_examples: z.array(z.object({ index: z.number(), question: z.string(), code: z.string(), message: z.string() })),
}) satisfies z.ZodType<KnowledgeImportResult>;
