import crypto from 'node:crypto';
import net from 'node:net';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Connection, ConnectionTestResult, CreateConnectionInput, ElevatedPrivilege, PolicySettingsInput, ReviewSettingsInput, SqliteFilesResponse, UpdateConnectionInput } from '@aigis/contracts';
import { AppError } from '../common/app-error.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { SecretBox } from '../crypto/secret-box.js';
import { UserLimits } from '../limits/user-limits.service.js';
import { ConnectionsRepository } from '../storage/repositories/connections.repository.js';
import type { ConnectionsTable } from '../storage/schema.js';
import { AdapterCache } from './adapter-cache.js';
import { DEFAULT_REVIEW_MODE, DEFAULT_REVIEW_THRESHOLDS } from './review-defaults.js';
import { type ConnectionSpec, ConnectionInputError, specFromCreate, specFromUpdate } from './connection-input.js';
import { createAdapter } from './dialects/index.js';
import type { AdapterSettings, ConnectionTarget, DialectAdapter } from './dialects/dialect-adapter.js';
import { TargetPolicy, TargetRefusedError } from './reach/target-policy.js';
import { SqliteAccess } from './sqlite-access.service.js';
import { relativeToRoot } from './sqlite-files.js';
import type { TablePolicy } from '../sql-guard/table-policy.js';
import { statementTimeoutMax } from '../config/env.schema.js';

export function toApiConnection(row: ConnectionsTable): Connection {
  return {
    id: row.id,
    name: row.name,
    dialect: row.dialect,
    host: row.host,
    port: row.port,
    database: row.database,
    user: row.username,
    ssl: row.ssl_mode !== 'disable',
    ssl_mode: row.ssl_mode,
    ssl_ca: row.ssl_ca,
    has_password: row.sealed_password !== null,
    elevated_privileges: row.elevated_privileges === null ? null : (JSON.parse(row.elevated_privileges) as ElevatedPrivilege[]),
    is_demo: row.is_demo === 1,
    allowed_functions: readAllowedFunctions(row.allowed_functions),
    allowed_tables: readNameList(row.allowed_tables),
    excluded_tables: readNameList(row.excluded_tables),
    row_limit: row.row_limit ?? null,
    statement_timeout_ms: row.statement_timeout_ms ?? null,
    review: (row.review as Connection['review']) ?? DEFAULT_REVIEW_MODE,
    review_thresholds: {
      cost: row.review_max_cost ?? DEFAULT_REVIEW_THRESHOLDS.cost,
      rows: row.review_max_rows ?? DEFAULT_REVIEW_THRESHOLDS.rows,
      scan_rows: row.review_scan_rows ?? DEFAULT_REVIEW_THRESHOLDS.scan_rows,
    },
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The stored JSON list; anything unreadable allows nothing (the guard then refuses every non-built-in function). */
function readAllowedFunctions(stored: string | null | undefined): string[] {
  return readNameList(stored) ?? [];
}

/** A stored JSON list of names; undefined when it does not read as one. */
function readNameList(stored: string | null | undefined): string[];
function readNameList(stored: string | null | undefined, unreadable: null): string[] | null;
function readNameList(stored: string | null | undefined, unreadable: string[] | null = []): string[] | null {
  try {
    const list: unknown = JSON.parse(stored ?? '[]');
    return Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : unreadable;
  } catch {
    return unreadable;
  }
}

/**
 * The table policy the guard and introspection apply. A stored list that does not read must not open
 * anything: it becomes an allowlist of nothing.
 */
function readTablePolicy(row: Pick<ConnectionsTable, 'allowed_tables' | 'excluded_tables'>): TablePolicy {
  const allowed = readNameList(row.allowed_tables, null);
  const excluded = readNameList(row.excluded_tables, null);
  // '\u0000' is no valid entry, and an allowlist whose entries all fail to parse allows nothing (compilePolicy).
  if (allowed === null || excluded === null) return { allowed: ['\u0000'], excluded: excluded ?? [] };
  return { allowed, excluded };
}

/** The policy columns a create or PATCH carries (absent: unchanged). */
function policyColumns(input: PolicySettingsInput): Partial<Pick<ConnectionsTable, 'allowed_tables' | 'excluded_tables' | 'row_limit' | 'statement_timeout_ms'>> {
  return {
    ...(input.allowed_tables !== undefined ? { allowed_tables: JSON.stringify(input.allowed_tables) } : {}),
    ...(input.excluded_tables !== undefined ? { excluded_tables: JSON.stringify(input.excluded_tables) } : {}),
    ...(input.row_limit !== undefined ? { row_limit: input.row_limit } : {}),
    ...(input.statement_timeout_ms !== undefined ? { statement_timeout_ms: input.statement_timeout_ms } : {}),
  };
}

/** The review settings a create or PATCH carries, as columns (absent: unchanged; a null threshold: the default). */
function reviewColumns(input: ReviewSettingsInput): Partial<Pick<ConnectionsTable, 'review' | 'review_max_cost' | 'review_max_rows' | 'review_scan_rows'>> {
  const t = input.review_thresholds;
  return {
    ...(input.review !== undefined ? { review: input.review } : {}),
    ...(t?.cost !== undefined ? { review_max_cost: t.cost } : {}),
    ...(t?.rows !== undefined ? { review_max_rows: t.rows } : {}),
    ...(t?.scan_rows !== undefined ? { review_scan_rows: t.scan_rows } : {}),
  };
}

/** Listeners told when a connection changes or goes away (schema cache, thread state). */
export type ConnectionChangeListener = (connectionId: string) => void;

@Injectable()
export class ConnectionsService {
  private readonly listeners: ConnectionChangeListener[] = [];
  private readonly logger = new Logger('Connections');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: ConnectionsRepository,
    private readonly secrets: SecretBox,
    private readonly adapters: AdapterCache,
    private readonly clock: Clock,
    private readonly limits: UserLimits,
    private readonly policy: TargetPolicy,
    private readonly sqliteAccess: SqliteAccess,
  ) {}

  onChange(listener: ConnectionChangeListener): void {
    this.listeners.push(listener);
  }

  async list(userId: string): Promise<Connection[]> {
    return (await this.repository.listByUser(userId)).map(toApiConnection);
  }

  async get(userId: string, id: string): Promise<Connection> {
    return toApiConnection(await this.row(userId, id));
  }

  async create(userId: string, input: CreateConnectionInput, options: { isDemo?: boolean } = {}): Promise<Connection> {
    this.checkLimits(input);
    const spec = await this.normalise(userId, () => specFromCreate(input));
    await this.checkReachable(spec);
    const id = crypto.randomUUID();
    const now = this.clock.iso();
    const row: ConnectionsTable = {
      id,
      user_id: userId,
      ...this.columns(spec),
      sealed_password: spec.password ? this.secrets.seal(spec.password, { connectionId: id, ownerId: userId }) : null,
      elevated_privileges: null,
      is_demo: options.isDemo ? 1 : 0,
      allowed_functions: JSON.stringify(input.allowed_functions ?? []),
      review: DEFAULT_REVIEW_MODE,
      review_max_cost: null,
      review_max_rows: null,
      review_scan_rows: null,
      allowed_tables: '[]',
      excluded_tables: '[]',
      row_limit: null,
      statement_timeout_ms: null,
      ...reviewColumns(input),
      ...policyColumns(input),
      created_at: now,
      updated_at: now,
    };
    await this.repository.insert(row);
    // Counted after the insert, so requests racing each other cannot all slip under the limit.
    if ((await this.repository.countByUser(userId)) > this.config.USER_MAX_SAVED_CONNECTIONS) {
      await this.repository.delete(userId, id);
      throw new AppError(
        'CONFLICT',
        `You already have ${this.config.USER_MAX_SAVED_CONNECTIONS} saved connections, the most one user may keep (USER_MAX_SAVED_CONNECTIONS). Delete one you no longer use, then add this one.`,
      );
    }
    return toApiConnection(row);
  }

  async update(userId: string, id: string, patch: UpdateConnectionInput): Promise<Connection> {
    this.checkLimits(patch);
    const current = await this.row(userId, id);
    const spec = await this.normalise(userId, () =>
      specFromUpdate(
        {
          name: current.name,
          dialect: current.dialect,
          host: current.host,
          port: current.port,
          database: current.database,
          user: current.username,
          sslMode: current.ssl_mode,
          sslCa: current.ssl_ca,
        },
        patch,
      ),
    );
    await this.checkReachable(spec);
    const sealed = spec.passwordChanged
      ? spec.password
        ? this.secrets.seal(spec.password, { connectionId: id, ownerId: userId })
        : null
      : current.sealed_password;
    const columns = this.columns(spec);
    const renamedOnly = !spec.passwordChanged && (['dialect', 'host', 'port', 'database', 'username', 'ssl_mode', 'ssl_ca'] as const).every((k) => columns[k] === current[k]);
    const changes = {
      ...columns,
      sealed_password: sealed,
      ...reviewColumns(patch),
      ...policyColumns(patch),
      ...(patch.allowed_functions !== undefined ? { allowed_functions: JSON.stringify(patch.allowed_functions) } : {}),
      // What the last test found no longer describes a moved connection or another login.
      elevated_privileges: renamedOnly ? current.elevated_privileges : null,
      updated_at: this.clock.iso(),
    };
    if (!(await this.repository.update(userId, id, changes))) throw AppError.notFound('Connection');
    await this.changed(id);
    return toApiConnection({ ...current, ...changes });
  }

  async delete(userId: string, id: string): Promise<void> {
    if (!(await this.repository.delete(userId, id))) throw AppError.notFound('Connection');
    await this.changed(id);
  }

  /** Connects afresh (not through the cached pool) so the answer reflects the stored settings now. */
  async test(userId: string, id: string): Promise<ConnectionTestResult> {
    const target = await this.target(userId, id);
    const release = this.limits.query(userId);
    const adapter = createAdapter(target, this.adapterSettings(userId));
    try {
      const probe = await adapter.probe();
      const started = performance.now();
      await adapter.executeReadOnly('SELECT 1', { maxRows: 1, timeoutMs: this.config.CONNECT_TIMEOUT_MS });
      const latency = performance.now() - started;
      await this.repository.update(userId, id, { elevated_privileges: JSON.stringify(probe.elevatedPrivileges) });
      return {
        ok: true,
        server_version: probe.serverVersion,
        latency_ms: Math.round(latency * 10) / 10,
        read_only_role: probe.readOnlyRole,
        elevated_privileges: probe.elevatedPrivileges,
        warnings: probe.warnings,
      };
    } finally {
      await adapter.close().finally(release);
    }
  }

  /** The cached adapter (pool) for a connection the user owns. */
  async adapterFor(userId: string, id: string): Promise<{ adapter: DialectAdapter; target: ConnectionTarget }> {
    const target = await this.target(userId, id);
    return { adapter: this.adapters.get(target, this.adapterSettings(userId)), target };
  }

  /** Everything needed to connect, with the password opened from the secret box (memory only). */
  async target(userId: string, id: string): Promise<ConnectionTarget> {
    const row = await this.row(userId, id);
    const password = row.sealed_password ? this.secrets.open(row.sealed_password, { connectionId: row.id, ownerId: row.user_id }) : null;
    return {
      id: row.id,
      dialect: row.dialect,
      host: row.host,
      port: row.port,
      database: row.database,
      user: row.username,
      password,
      ssl: row.ssl_mode !== 'disable',
      sslMode: row.ssl_mode,
      sslCa: row.ssl_ca,
      filePath: row.dialect === 'sqlite' ? await this.sqliteAccess.resolve(row.user_id, row.database ?? '') : null,
      allowedFunctions: readAllowedFunctions(row.allowed_functions),
      tablePolicy: readTablePolicy(row),
      rowLimit: row.row_limit ?? null,
      statementTimeoutMs: row.statement_timeout_ms ?? null,
    };
  }

  /** The row cap and statement timeout for a connection: its own, within the instance's maxima, or the instance's defaults. */
  executionLimits(target: Pick<ConnectionTarget, 'rowLimit' | 'statementTimeoutMs'>): { rowLimit: number; maxRows: number; timeoutMs: number } {
    const maxRows = Math.min(target.rowLimit ?? this.config.ROW_LIMIT_MAX, this.config.ROW_LIMIT_MAX);
    return {
      rowLimit: Math.min(target.rowLimit ?? this.config.ROW_LIMIT, maxRows),
      maxRows,
      timeoutMs: Math.min(target.statementTimeoutMs ?? this.config.STATEMENT_TIMEOUT_MS, statementTimeoutMax(this.config)),
    };
  }

  /** A row limit or timeout beyond the instance's maxima is the owner's input error, said with the maximum. */
  private checkLimits(input: PolicySettingsInput): void {
    if (input.row_limit != null && input.row_limit > this.config.ROW_LIMIT_MAX) {
      throw new AppError('VALIDATION_FAILED', `row_limit: must be at most ${this.config.ROW_LIMIT_MAX} (this instance's ROW_LIMIT_MAX)`);
    }
    const longest = statementTimeoutMax(this.config);
    if (input.statement_timeout_ms != null && input.statement_timeout_ms > longest) {
      throw new AppError('VALIDATION_FAILED', `statement_timeout_ms: must be at most ${longest} (this instance's STATEMENT_TIMEOUT_MAX_MS)`);
    }
  }

  /** Only the files this user may connect to. */
  sqliteFiles(userId: string): Promise<SqliteFilesResponse> {
    return this.sqliteAccess.list(userId);
  }

  /** Pool settings for a user's database; every pool of the user shares their budget of open connections. */
  adapterSettings(userId: string): AdapterSettings {
    return {
      connectTimeoutMs: this.config.CONNECT_TIMEOUT_MS,
      poolMax: this.config.POOL_MAX,
      backends: this.limits.backends(userId),
      reach: (host, port, database) => this.policy.check(host, port, database),
    };
  }

  private async row(userId: string, id: string): Promise<ConnectionsTable> {
    const row = await this.repository.findOwned(userId, id);
    if (!row) throw AppError.notFound('Connection');
    return row;
  }

  private async changed(id: string): Promise<void> {
    await this.adapters.evict(id);
    for (const listener of this.listeners) listener(id);
  }

  /** Input errors become VALIDATION_FAILED; SQLite paths are confined to what the user may use and stored relative to SQLITE_ROOT. */
  private async normalise<T extends ConnectionSpec>(userId: string, build: () => T): Promise<T> {
    let spec: T;
    try {
      spec = build();
    } catch (error) {
      if (error instanceof ConnectionInputError) throw new AppError('VALIDATION_FAILED', error.message);
      throw error;
    }
    // The guard resolves unqualified names against no default schema; `user` inside `mysql` is the credential table.
    if (spec.dialect === 'mysql' && spec.database?.toLowerCase() === 'mysql') {
      throw new AppError('VALIDATION_FAILED', 'database: the MySQL system schema "mysql" cannot be used as a connection database; connect to your own database');
    }
    // mysql2 checks a certificate's name only against a host name (for an address it would check "localhost").
    if (spec.dialect === 'mysql' && spec.sslMode === 'verify-full' && spec.host && net.isIP(spec.host)) {
      throw new AppError('VALIDATION_FAILED', 'ssl_mode: verify-full on MySQL needs the host name the certificate carries, not an address (or use verify-ca)');
    }
    if (spec.dialect === 'sqlite') {
      const absolute = await this.sqliteAccess.resolve(userId, spec.database ?? '');
      spec.database = relativeToRoot(this.config.sqliteRoot, absolute);
    }
    return spec;
  }

  /**
   * A server the policy refuses (the app's own storage, a denied or not-allowed address) cannot be saved. The same
   * check runs again at every connect, since a name can resolve elsewhere later.
   */
  private async checkReachable(spec: ConnectionSpec): Promise<void> {
    if (spec.dialect === 'sqlite' || !spec.host || !spec.port) return;
    try {
      await this.policy.checkSaved(spec.host, spec.port, spec.database);
    } catch (error) {
      if (!(error instanceof TargetRefusedError)) throw error;
      this.logger.warn(`connection target refused: ${error.reason}`);
      throw new AppError('VALIDATION_FAILED', `host: connections to ${spec.host}:${spec.port} are not allowed on this server`);
    }
  }

  private columns(spec: ConnectionSpec) {
    return {
      name: spec.name,
      dialect: spec.dialect,
      host: spec.host,
      port: spec.port,
      database: spec.database,
      username: spec.user,
      ssl: spec.sslMode === 'disable' ? 0 : 1,
      ssl_mode: spec.sslMode,
      ssl_ca: spec.sslCa,
    };
  }
}
