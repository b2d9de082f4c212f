/** Shapes of the HTTP API (SPEC "HTTP API") that both sides use. */
import type { ReviewProposal } from './stream-events.js';

export type Dialect = 'postgres' | 'mysql' | 'sqlite';

export type UserRole = 'admin' | 'member';

export interface User {
  id: string;
  email: string;
  role: UserRole;
}

export type RegistrationMode = 'open' | 'invite' | 'closed';

/**
 * POST /api/auth/register `{email, password, invite?}`. The answer is the same whether or not the
 * email already had an account (202 `{status:"ok"}`), so it cannot be used to find out who has one;
 * the client then logs in.
 */
export interface RegisterResponse {
  status: 'ok';
}

/** POST /api/auth/login `{email, password, session?}`. `session: "token"` (the default, for API clients). */
export interface AuthResponse {
  token: string;
  user: User;
}

/** When a query is shown to the user before it runs: never, when the database estimates it expensive, or always. */
export type ReviewMode = 'never' | 'expensive' | 'always';
export const REVIEW_MODES: readonly ReviewMode[] = ['never', 'expensive', 'always'];

/** What makes a query "expensive" for a connection (in the database's own estimate). */
export interface ReviewThresholds {
  /** Planner cost above which to ask (PostgreSQL total cost, MySQL query_cost; SQLite has none). */
  cost: number;
  /** Estimated rows processed above which to ask. */
  rows: number;
  /** Ask when the query reads a whole table of more than this many rows. */
  scan_rows: number;
}

/** TLS to the database server, in libpq's terms (MySQL: DISABLED, REQUIRED, VERIFY_CA, VERIFY_IDENTITY). */
export type SslMode = 'disable' | 'require' | 'verify-ca' | 'verify-full';

/** What a connection's role may do beyond reading and writing tables: each is a way out of the database. */
export type ElevatedPrivilege = 'superuser' | 'read_server_files' | 'write_server_files' | 'run_server_programs' | 'grant_privileges';

/** `session: "cookie"` (the web app): the token is set as an httpOnly cookie and never given to scripts. */
export interface SessionResponse {
  user: User;
}

/** GET /api/auth/session (public): who the session cookie (or bearer token) belongs to, if anyone; always 200. */
export interface SessionStatus {
  user: User | null;
}

/** GET /api/auth/registration (public): what the sign-up screen should offer. */
export interface RegistrationInfo {
  mode: RegistrationMode;
  /** No account exists yet: the first one may register whatever the mode, and becomes the admin. */
  first_account: boolean;
}

/** Where the registration mode comes from: REGISTRATION in the environment wins over an admin's choice. */
export interface RegistrationSetting {
  mode: RegistrationMode;
  source: 'environment' | 'admin' | 'default';
}

export interface AdminUser {
  id: string;
  email: string;
  role: UserRole;
  disabled: boolean;
  created_at: string;
}

export interface Invite {
  id: string;
  status: 'pending' | 'used' | 'expired' | 'revoked';
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by_email: string | null;
}

/** POST /api/admin/invites: the token is shown this once (only its hash is stored). */
export interface CreatedInvite {
  invite: Invite;
  token: string;
  /** Path of the sign-up page for this invite; prefix it with the app's address. */
  path: string;
}

export interface InstanceSettings {
  registration: RegistrationSetting;
  mode: 'embedded' | 'server';
  trust_proxy: boolean;
  sqlite_root: string;
  limits: {
    token_ttl_hours: number;
    login_max_failures: number;
    login_window_minutes: number;
    registrations_per_hour: number;
    row_limit: number;
    row_limit_max: number;
    statement_timeout_ms: number;
  };
}

export interface SqliteGrant {
  id: string;
  user_id: string;
  user_email: string;
  path: string;
  created_at: string;
}

/** GET /api/connections/sqlite-files: only files this user may connect to. */
export interface SqliteFilesResponse {
  root: string;
  /** The user's own folder, relative to the root (`<user id>/`); admins may use any file under the root. */
  folder: string;
  files: { path: string; size_bytes: number }[];
}

export interface Connection {
  id: string;
  name: string;
  dialect: Dialect;
  host: string | null;
  port: number | null;
  database: string | null;
  user: string | null;
  /** True unless ssl_mode is 'disable'. */
  ssl: boolean;
  ssl_mode: SslMode;
  /** PEM CA certificate(s) for verify-ca / verify-full; null = the system's roots. */
  ssl_ca: string | null;
  /** False after the server (host, port, dialect, database, user) changed without a new password: ask for it again. */
  has_password: boolean;
  /** From the last connection test (null: never tested since the connection last changed). */
  elevated_privileges: ElevatedPrivilege[] | null;
  is_demo: boolean;
  /** Functions of their own the owner lets queries call, by exact name (`my_fn`, `public.my_fn`). */
  allowed_functions: string[];
  /**
   * Table policy: entries `name`, `schema.name` or `schema.*`. With allowed tables, queries may read only those;
   * excluded tables are never read, shown in the schema or given to a model. Empty lists: no policy.
   */
  allowed_tables: string[];
  excluded_tables: string[];
  /** Rows a query returns at most on this connection (null: the instance's ROW_LIMIT), within ROW_LIMIT_MAX. */
  row_limit: number | null;
  /** Statement timeout on this connection (null: the instance's STATEMENT_TIMEOUT_MS), within STATEMENT_TIMEOUT_MAX_MS. */
  statement_timeout_ms: number | null;
  review: ReviewMode;
  /** The thresholds in effect (the connection's own, or the defaults). */
  review_thresholds: ReviewThresholds;
  created_at: string;
  updated_at: string;
}

export interface ConnectionTestResult {
  ok: true;
  server_version: string;
  latency_ms: number;
  read_only_role: boolean;
  /** Non-empty: the role can leave the database (superuser, server files, programs, granting). Show it prominently. */
  elevated_privileges: ElevatedPrivilege[];
  warnings: string[];
}

export interface SchemaColumn {
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
  primary_key: boolean;
  comment: string | null;
}

export interface SchemaForeignKey {
  name: string | null;
  columns: string[];
  referenced_schema: string | null;
  referenced_table: string;
  referenced_columns: string[];
}

export interface SchemaTable {
  schema: string | null;
  name: string;
  kind: 'table' | 'view';
  comment: string | null;
  columns: SchemaColumn[];
  foreign_keys: SchemaForeignKey[];
  row_estimate: number | null;
  sample_rows: Record<string, unknown>[];
  /** Why sample rows are missing, when they are (timeout, permission). */
  sample_error?: string;
}

/**
 * How a schema's markdown was rendered: 'full' when every table is detailed; 'no_samples' without sample rows;
 * 'columns' with column names only; 'compact' when tables are only listed (details via describe_table). Prompts
 * narrow a schema that is not 'full' or 'no_samples' to each question ('selected'). The one name of this detail,
 * on the wire (`markdown_mode`) and inside the API alike.
 */
export type MarkdownMode = 'full' | 'no_samples' | 'columns' | 'compact' | 'selected';

export interface SchemaResponse {
  dialect: Dialect;
  tables: SchemaTable[];
  markdown: string;
  markdown_mode: MarkdownMode;
  introspected_at: string;
  elapsed_ms: number;
  catalog_queries: number;
}

export interface QueryResponse {
  columns: string[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
  /** Set when `truncated`: the row cap, or the result's byte budget (RESULT_MAX_BYTES). */
  truncated_reason?: TruncatedReason;
  elapsed_ms: number;
  sql_executed: string;
}

/** row_limit / result_bytes: while reading; turn_store_bytes: rows left out when the thread stored the turn. */
export type TruncatedReason = 'row_limit' | 'result_bytes' | 'turn_store_bytes';

export interface ModelInfo {
  name: string;
  provider: string;
  model_id: string;
  available: boolean;
  reason?: string;
  aliases: string[];
  capabilities: { tool_calling: boolean; context_window: number | null };
  /** `GET /api/models`: the model's last accuracy run (`npm run eval`), null when it has none. */
  last_score?: ModelScore | null;
}

/** One run of the accuracy harness: execution match on a benchmark's questions. */
export interface ModelScore {
  /** defog | bird */
  benchmark: string;
  /** correct / questions, from 0 to 1. */
  score: number;
  correct: number;
  questions: number;
  /** Whether the connections' example queries reached the prompts. */
  examples: 'on' | 'off';
  /** ISO time of the run. */
  date: string;
}

export interface ThreadSummary {
  thread_id: string;
  title: string;
  model: string | null;
  connection_id: string | null;
  /** The thread's own review mode; null inherits the connection's. */
  review: ReviewMode | null;
  /**
   * Whether the SQL writer gets the connection's most similar example queries (default true; POST/PATCH
   * /api/chat `knowledge_examples`). False measures what they add; the rest of the knowledge is always used.
   */
  knowledge_examples: boolean;
  created_at: string;
  updated_at: string;
}

/** A message of a thread as the web app shows it (derived from the checkpointed LangChain messages). */
export interface ThreadMessage {
  id: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: { id: string; name: string; args: Record<string, unknown> }[];
  tool_call_id?: string;
  tool_name?: string;
  /** Structured tool output (sql_result / vega_lite_spec / error), when the message is a tool result. */
  result?: unknown;
  /** The user stopped this answer before it finished; the content is what had arrived. */
  stopped?: boolean;
  /** Stands in for a stored turn that could not be read back; the content says so. */
  unreadable?: boolean;
}

export interface ThreadDetail extends ThreadSummary {
  messages: ThreadMessage[];
  /** A query waiting for the user's decision, if any. */
  pending_review: ReviewProposal | null;
}

export interface ThreadModelResponse {
  thread_id: string;
  /** The model the next message will use: the thread's own choice, else the default (null: none available). */
  model: string | null;
  /** 'thread' when chosen for this thread, 'default' when it falls back to DEFAULT_MODEL / the first available. */
  source: 'thread' | 'default' | null;
  models: Record<string, boolean>;
}

export interface ThreadConnectionResponse {
  thread_id: string;
  connection_id: string;
  tables: number;
  markdown_mode: MarkdownMode;
}

export interface ThreadState {
  messages: ThreadMessage[];
  model_name: string | null;
  db_schema: string | null;
  connection: { user_id: string; connection_id: string } | null;
  sql_result: { sql: string; columns: string[]; rows: Record<string, unknown>[]; row_count: number; truncated: boolean } | null;
  pending_review: ReviewProposal | null;
}

export interface ProviderSetup {
  provider: string;
  label: string;
  configured: boolean;
  env: string[];
  hint: string;
}
