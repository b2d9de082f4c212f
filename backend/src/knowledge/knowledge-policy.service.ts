import { Injectable, Logger } from '@nestjs/common';
import { parseTableEntry } from '@aigis/contracts';
import { ConnectionsService } from '../connections/connections.service.js';
import { ViewPolicy } from '../connections/view-policy.service.js';
import { ParserSqlGuard } from '../sql-guard/parser-sql-guard.js';
import type { GuardOptions } from '../sql-guard/sql-guard.js';
import { compilePolicy, refRefusal } from '../sql-guard/table-policy.js';

/** What of a connection's knowledge a prompt may carry: nothing that names a table its policy hides. */
export interface KnowledgeFilter {
  /** A table note's table, or a table a learning names (`name` or `schema.name`). */
  tableShown(schema: string | null, name: string): boolean;
  /** SQL (an example, a failed query, a glossary term's fragment) is shown unless the table policy is what refuses it. */
  sqlShown(sql: string): Promise<boolean>;
  /** SQL offered as working (a learning's) is shown only when the guard would run it: a query, within the policy. */
  sqlRuns(sql: string): Promise<boolean>;
}

/** When the connection cannot be read (the database is down): nothing that names a table or holds SQL. */
const NOTHING: KnowledgeFilter = { tableShown: () => false, sqlShown: () => Promise.resolve(false), sqlRuns: () => Promise.resolve(false) };

/**
 * Excluded tables never reach a prompt, and the owner's knowledge is no way around that: a note on an excluded
 * table, an example or learning written before the table was excluded (or imported), would name it and its
 * columns to the model. The same policy as the guard's, views reading excluded tables included.
 */
@Injectable()
export class KnowledgePolicy {
  private readonly logger = new Logger(KnowledgePolicy.name);
  private readonly guard = new ParserSqlGuard();

  constructor(
    private readonly connections: ConnectionsService,
    private readonly views: ViewPolicy,
  ) {}

  async filterFor(userId: string, connectionId: string): Promise<KnowledgeFilter> {
    try {
      const { adapter, target } = await this.connections.adapterFor(userId, connectionId);
      const stored = target.tablePolicy;
      const hasPolicy = stored !== undefined && (stored.allowed.length > 0 || stored.excluded.length > 0);
      const tablePolicy = hasPolicy ? await this.views.effective(adapter, target) : undefined;
      const defaultSchema = target.dialect === 'mysql' ? (target.database ?? null) : undefined;
      const policy = compilePolicy(target.dialect, tablePolicy, defaultSchema);
      const options: GuardOptions = { allowedFunctions: target.allowedFunctions, tablePolicy, defaultSchema };
      const runs = async (sql: string) => (await this.guard.check(target.dialect, sql, options)).ok;
      return {
        tableShown: (schema, name) => !policy || refRefusal(policy, { ...(schema !== null ? { schema } : {}), name }) === undefined,
        sqlShown: async (sql) => !policy || (await runs(sql)) || !(await this.guard.check(target.dialect, sql, { ...options, tablePolicy: undefined })).ok,
        sqlRuns: runs,
      };
    } catch (error) {
      this.logger.warn(`table policy of connection ${connectionId} unreadable; its notes and examples stay out of the prompt: ${error instanceof Error ? error.message : String(error)}`);
      return NOTHING;
    }
  }
}

/** A table as a learning lists it: `name` or `schema.name` (entries that do not parse are shown as not hidden by name). */
export function learningTableShown(filter: KnowledgeFilter, table: string): boolean {
  const entry = parseTableEntry(table);
  if ('problem' in entry || entry.name === undefined) return filter.tableShown(null, table);
  return filter.tableShown(entry.schema ?? null, entry.name);
}
