import type { Dialect, ElevatedPrivilege, QueryEstimate, SchemaTable, SslMode } from '@aigis/contracts';
import type { BackendBudget } from '../../limits/backend-budget.js';
import type { ByteBudgets, TruncatedReason } from './result-budget.js';
import type { CheckedAddress } from '../reach/target-policy.js';
import type { TablePolicy } from '../../sql-guard/table-policy.js';

/** Where and how to reach one user database. The password is plaintext here: only in memory, never logged. */
export interface ConnectionTarget {
  /** Our connection id; pools are cached under it. */
  id: string;
  dialect: Dialect;
  host?: string | null;
  port?: number | null;
  /** postgres/mysql: database name (mysql: optional, all non-system databases when empty). */
  database?: string | null;
  user?: string | null;
  password?: string | null;
  /** Legacy switch: true means sslMode `require` when sslMode is absent. */
  ssl?: boolean;
  sslMode?: SslMode;
  /** PEM certificate(s) trusted for verify-ca / verify-full (default: the system roots). */
  sslCa?: string | null;
  /** sqlite: absolute path, already checked to lie under SQLITE_ROOT. */
  filePath?: string | null;
  /** Functions of their own the owner allows queries to call; the SQL guard reads these. */
  allowedFunctions?: readonly string[];
  /** The owner's allowed and excluded tables; the SQL guard and introspection read these. */
  tablePolicy?: TablePolicy;
  /** The connection's own row cap and statement timeout (null: the instance's); see ConnectionsService.executionLimits. */
  rowLimit?: number | null;
  statementTimeoutMs?: number | null;
}

/** Resolves and checks a server before each new connection (TargetPolicy.check); the socket connects to the answer. */
export type TargetCheck = (host: string, port: number, database: string | null) => Promise<CheckedAddress>;

export interface AdapterSettings {
  connectTimeoutMs: number;
  poolMax: number;
  /** The owner's budget of open server connections, shared by all their pools (none: unbounded, e.g. in tests). */
  backends?: BackendBudget;
  /** Absent: the driver resolves and connects by itself (tests of the adapters alone). */
  reach?: TargetCheck;
}

export interface ExecuteOptions {
  /** Row cap: at most this many rows are returned; `truncated` says whether more existed. */
  maxRows: number;
  /** Statement timeout, enforced by the database and backed by a client-side timer. */
  timeoutMs: number;
  /** Aborting cancels the running statement in the database. */
  signal?: AbortSignal;
  /**
   * MySQL: the guard found no top-level LIMIT, so `LIMIT maxRows+1` may be appended and the server
   * stops early. Without it the adapter still caps the rows it reads.
   */
  appendLimit?: boolean;
  /** Per cell and per result, applied while the rows are read (result-budget.ts); default DEFAULT_BUDGETS. */
  budgets?: ByteBudgets;
}

export interface ExplainOptions {
  /** The same statement timeout as the query's. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface ExecuteResult {
  columns: string[];
  /** JSON-safe values (see json-safe.ts). */
  rows: Record<string, unknown>[];
  truncated: boolean;
  /** Set when `truncated`: the row cap or the result's byte budget ended the reading. */
  truncatedReason?: TruncatedReason | null;
  /** The statement as sent to the database. */
  sqlExecuted: string;
}

export interface ServerProbe {
  serverVersion: string;
  /** True when the credential cannot write (no INSERT/UPDATE/DELETE/DDL privilege, or read-only file). */
  readOnlyRole: boolean;
  /** Powers beyond writing: superuser, server files, programs, granting (shown as a red warning). */
  elevatedPrivileges: ElevatedPrivilege[];
  warnings: string[];
}

export interface IntrospectOptions {
  /** Sample rows per table (0 disables sampling). */
  sampleRows: number;
  sampleConcurrency: number;
  sampleTimeoutMs: number;
  signal?: AbortSignal;
  /** The connection's table policy: a table it hides is neither sampled nor returned (absent: every table). */
  includeTable?: (schema: string | null, name: string) => boolean;
}

export interface IntrospectionResult {
  tables: SchemaTable[];
  /** Catalog round trips used for metadata (sample-row queries are not counted). */
  catalogQueries: number;
}

/**
 * One user database, reached through a bounded pool (or, for SQLite, a worker thread).
 * Errors are AppErrors: CONNECTION_FAILED, QUERY_FAILED (details.class from classifyDbError),
 * QUERY_TIMEOUT, QUERY_CANCELLED.
 */
export interface DialectAdapter {
  readonly dialect: Dialect;
  /** Runs one statement in a READ ONLY transaction that is always rolled back. Never parses: the guard already did. */
  executeReadOnly(sql: string, options: ExecuteOptions): Promise<ExecuteResult>;
  /**
   * The database's own estimate of a statement the guard accepted, before it runs: our code puts EXPLAIN in
   * front (never user text), inside the same read-only transaction and timeout as executeReadOnly. Nothing executes.
   */
  explain(sql: string, options: ExplainOptions): Promise<QueryEstimate>;
  /** Server version, round-trip latency is measured by the caller, and whether the credential can write. */
  probe(): Promise<ServerProbe>;
  /** Metadata in a fixed number of catalog round trips, then sample rows with bounded concurrency. */
  introspect(options: IntrospectOptions): Promise<IntrospectionResult>;
  /** Closes the pool / worker. Idempotent. */
  close(): Promise<void>;
}

/** Classes of database errors fed back to the model so it can correct its SQL (SPEC "Agent"). */
export type DbErrorClass =
  | 'syntax'
  | 'column_not_found'
  | 'table_not_found'
  | 'permission'
  | 'timeout'
  | 'type_mismatch'
  | 'read_only'
  | 'execution';
