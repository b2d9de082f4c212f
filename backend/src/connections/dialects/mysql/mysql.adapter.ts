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
import { executeMysql, explainMysql } from './mysql-executor.js';
import { introspectMysql } from './mysql-introspector.js';
import { MysqlPool } from './mysql-pool.js';
import { probeMysql } from './mysql-probe.js';

/**
 * MySQL and MariaDB: a bounded mysql2 pool of READ ONLY sessions (mysql-pool.ts), read-only execution and
 * estimates (mysql-executor.ts), the catalog and sample rows (mysql-introspector.ts) and the grants check
 * (mysql-probe.ts).
 */
export class MysqlAdapter implements DialectAdapter {
  readonly dialect = 'mysql' as const;
  private readonly pool: MysqlPool;

  constructor(target: ConnectionTarget, settings: AdapterSettings) {
    this.pool = new MysqlPool(target, settings);
  }

  executeReadOnly(sql: string, options: ExecuteOptions): Promise<ExecuteResult> {
    return executeMysql(this.pool, sql, options);
  }

  explain(sql: string, options: ExplainOptions): Promise<QueryEstimate> {
    return explainMysql(this.pool, sql, options);
  }

  probe(): Promise<ServerProbe> {
    return probeMysql(this.pool);
  }

  introspect(options: IntrospectOptions): Promise<IntrospectionResult> {
    return introspectMysql(this.pool, options);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
