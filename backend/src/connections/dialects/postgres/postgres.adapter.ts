import type { QueryEstimate } from '@aigis/contracts';
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
import { executePostgres, explainPostgres } from './postgres-executor.js';
import { introspectPostgres } from './postgres-introspector.js';
import { PostgresPool } from './postgres-pool.js';
import { probePostgres } from './postgres-probe.js';

/**
 * PostgreSQL: a bounded pg pool (postgres-pool.ts), read-only execution and estimates (postgres-executor.ts),
 * the catalog and sample rows (postgres-introspector.ts) and the role check (postgres-probe.ts).
 */
export class PostgresAdapter implements DialectAdapter {
  readonly dialect = 'postgres' as const;
  private readonly pool: PostgresPool;

  constructor(target: ConnectionTarget, settings: AdapterSettings) {
    this.pool = new PostgresPool(target, settings);
  }

  executeReadOnly(sql: string, options: ExecuteOptions): Promise<ExecuteResult> {
    return executePostgres(this.pool, sql, options);
  }

  explain(sql: string, options: ExplainOptions): Promise<QueryEstimate> {
    return explainPostgres(this.pool, sql, options);
  }

  probe(): Promise<ServerProbe> {
    return probePostgres(this.pool);
  }

  introspect(options: IntrospectOptions): Promise<IntrospectionResult> {
    return introspectPostgres(this.pool, options);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
