import type { QueryEstimate } from '@aigis/contracts';
import { AppError } from '../../../common/app-error.js';
import { DEFAULT_BUDGETS } from '../result-budget.js';
import type {
  AdapterSettings,
  ConnectionTarget,
  DialectAdapter,
  ExecuteOptions,
  ExecuteResult,
  ExplainOptions,
  IntrospectionResult,
  IntrospectOptions,
  ServerProbe,
} from '../dialect-adapter.js';
import { executeSqlite, explainSqlite } from './sqlite-executor.js';
import { introspectSqlite } from './sqlite-introspector.js';
import { SqliteProcess } from './sqlite-process.js';

/**
 * SQLite: one file served by a read-only child process (sqlite-process.ts, sqlite-child.ts), read-only execution
 * and estimates (sqlite-executor.ts) and the catalog and sample rows (sqlite-introspector.ts).
 */
export class SqliteAdapter implements DialectAdapter {
  readonly dialect = 'sqlite' as const;
  private readonly sqlite: SqliteProcess;

  constructor(
    target: ConnectionTarget,
    private readonly settings: AdapterSettings,
  ) {
    if (!target.filePath) throw new AppError('CONNECTION_FAILED', 'this SQLite connection has no file');
    this.sqlite = new SqliteProcess(target.filePath, Math.max(settings.connectTimeoutMs, 5000));
  }

  /** The pid of the SQLite process while one runs (diagnostics and tests: a stopped query must leave no process). */
  get processId(): number | null {
    return this.sqlite.processId;
  }

  executeReadOnly(sql: string, options: ExecuteOptions): Promise<ExecuteResult> {
    return executeSqlite(this.sqlite, sql, options);
  }

  explain(sql: string, options: ExplainOptions): Promise<QueryEstimate> {
    return explainSqlite(this.sqlite, sql, options);
  }

  async probe(): Promise<ServerProbe> {
    await this.sqlite.request('exec', { sql: 'SELECT 1', maxRows: 1, ...DEFAULT_BUDGETS }, this.settings.connectTimeoutMs * 2);
    // Opened with readonly + query_only: this connection cannot write whatever the file's permissions are.
    return { serverVersion: `SQLite ${this.sqlite.version}`, readOnlyRole: true, elevatedPrivileges: [], warnings: [] };
  }

  introspect(options: IntrospectOptions): Promise<IntrospectionResult> {
    return introspectSqlite(this.sqlite, options);
  }

  close(): Promise<void> {
    return this.sqlite.close();
  }
}
