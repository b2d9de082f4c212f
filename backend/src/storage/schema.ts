/**
 * App storage tables, identical on SQLite and PostgreSQL: text ids (UUIDs made by the app),
 * ISO-8601 text timestamps (they sort correctly as text) and 0/1 integers for booleans,
 * so one set of migrations and repositories serves both.
 */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: UserRole;
  /** Set while an admin has disabled the account: its tokens stop working and it cannot log in. */
  disabled_at: string | null;
  created_at: string;
}

export type UserRole = 'admin' | 'member';

export interface AuthTokensTable {
  id: string;
  user_id: string;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface LoginFailuresTable {
  id: string;
  email: string;
  ip: string;
  created_at: string;
}

export interface ConnectionsTable {
  id: string;
  user_id: string;
  name: string;
  dialect: 'postgres' | 'mysql' | 'sqlite';
  host: string | null;
  port: number | null;
  database: string | null;
  username: string | null;
  /** Kept in step with ssl_mode (1 unless 'disable'). */
  ssl: number;
  ssl_mode: 'disable' | 'require' | 'verify-ca' | 'verify-full';
  /** PEM CA certificate(s) for verify-ca / verify-full (public, stored as given). */
  ssl_ca: string | null;
  /** JSON array of ElevatedPrivilege from the last connection test; null when not tested since the last change. */
  elevated_privileges: string | null;
  /** SecretBox envelope (`v1.<key id>.<iv>.<tag>.<ciphertext>`); never plaintext. */
  sealed_password: string | null;
  is_demo: number;
  /** JSON array of function names the owner allows queries to call (`my_fn`, `public.my_fn`). */
  allowed_functions: string;
  /** JSON arrays of table policy entries (`name`, `schema.name`, `schema.*`); empty allowed = every table not excluded. */
  allowed_tables: string;
  excluded_tables: string;
  /** Null: the instance's ROW_LIMIT / STATEMENT_TIMEOUT_MS. */
  row_limit: number | null;
  statement_timeout_ms: number | null;
  /** never | expensive | always */
  review: string;
  /** Null: the default threshold. */
  review_max_cost: number | null;
  review_max_rows: number | null;
  review_scan_rows: number | null;
  created_at: string;
  updated_at: string;
}

export interface ThreadsTable {
  id: string;
  user_id: string;
  title: string;
  model_name: string | null;
  connection_id: string | null;
  /** never | expensive | always; null follows the connection. */
  review: string | null;
  /** 1: the SQL writer gets the connection's most similar examples; 0: not (to measure what they add). */
  knowledge_examples: number;
  created_at: string;
  updated_at: string;
}

export interface QueryAuditTable {
  id: string;
  user_id: string;
  connection_id: string;
  thread_id: string | null;
  model_name: string | null;
  sql: string;
  /** ok | rejected | failed | timeout | cancelled */
  status: string;
  row_count: number | null;
  elapsed_ms: number;
  error_code: string | null;
  error_message: string | null;
  /** The review decision that approved this execution, if one did. */
  review_id: string | null;
  created_at: string;
}

export interface ReviewDecisionsTable {
  /** The proposal's id. */
  id: string;
  user_id: string;
  connection_id: string;
  thread_id: string;
  /** approved | denied | superseded */
  decision: string;
  proposed_sql: string;
  approved_sql: string | null;
  reason: string | null;
  /** JSON of the estimate shown to the user. */
  estimate: string | null;
  created_at: string;
}

/** A turn in progress on a thread (one at a time per thread, whichever process runs it). */
export interface ThreadTurnsTable {
  thread_id: string;
  /** Random id of the turn holding the lease. */
  owner: string;
  /** ISO time after which a lease whose process died is free again. */
  expires_at: string;
}

export interface InvitesTable {
  id: string;
  /** SHA-256 of the invite token; the token itself is shown once, to the admin who made it. */
  token_hash: string;
  created_by: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  used_by: string | null;
  revoked_at: string | null;
}

/** Settings an admin changes at run time (e.g. `registration`), and the first-account claim. */
export interface InstanceSettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

/** A file or folder under SQLITE_ROOT (relative to it) that an admin let a member use. */
export interface SqliteGrantsTable {
  id: string;
  user_id: string;
  path: string;
  created_by: string;
  created_at: string;
}

export interface RegistrationAttemptsTable {
  id: string;
  client: string;
  created_at: string;
}

/** Free text the connection's owner writes, always in the prompt. */
export interface KnowledgeInstructionsTable {
  connection_id: string;
  text: string;
  updated_at: string;
}

export interface KnowledgeGlossaryTable {
  id: string;
  connection_id: string;
  term: string;
  /** The term folded (case, spaces) for uniqueness. */
  term_key: string;
  definition: string;
  sql: string | null;
  unit: string | null;
  /** JSON array of strings. */
  caveats: string;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeTableNotesTable {
  id: string;
  connection_id: string;
  /** '' when the table has no schema to name. */
  schema_name: string;
  table_name: string;
  description: string | null;
  /** JSON object: column name → note. */
  column_notes: string;
  /** JSON array of strings. */
  data_quality: string;
  updated_at: string;
}

export interface KnowledgeExamplesTable {
  id: string;
  connection_id: string;
  question: string;
  sql: string;
  /** Hash of the normalised question and SQL (one copy per connection). */
  content_key: string;
  /** manual | answer | import */
  source: string;
  thread_id: string | null;
  row_count: number;
  /** JSON array of the verified result's column names. */
  columns: string;
  elapsed_ms: number;
  verified_at: string;
  created_at: string;
  updated_at: string;
}

export interface KnowledgeLearningsTable {
  id: string;
  connection_id: string;
  category: string;
  /** JSON array of table names. */
  tables: string;
  failed_sql: string | null;
  working_sql: string;
  lesson: string;
  /** Hash of the normalised content (a repeat raises confidence instead of adding a row). */
  content_key: string;
  confidence: number;
  thread_id: string | null;
  created_at: string;
  updated_at: string;
}

/** One run of the accuracy harness (npm run eval) for one model. */
export interface ModelScoresTable {
  id: string;
  model: string;
  /** defog | bird */
  benchmark: string;
  /** on | off */
  examples: string;
  correct: number;
  questions: number;
  run_at: string;
}

export interface AppDatabase {
  users: UsersTable;
  auth_tokens: AuthTokensTable;
  login_failures: LoginFailuresTable;
  connections: ConnectionsTable;
  threads: ThreadsTable;
  query_audit: QueryAuditTable;
  thread_turns: ThreadTurnsTable;
  review_decisions: ReviewDecisionsTable;
  invites: InvitesTable;
  instance_settings: InstanceSettingsTable;
  file_grants: SqliteGrantsTable;
  registration_attempts: RegistrationAttemptsTable;
  knowledge_instructions: KnowledgeInstructionsTable;
  knowledge_glossary: KnowledgeGlossaryTable;
  knowledge_table_notes: KnowledgeTableNotesTable;
  knowledge_examples: KnowledgeExamplesTable;
  knowledge_learnings: KnowledgeLearningsTable;
  model_scores: ModelScoresTable;
}
