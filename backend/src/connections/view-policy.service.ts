import { Inject, Injectable } from '@nestjs/common';
import type { Dialect } from '@aigis/contracts';
import { LRUCache } from 'lru-cache';
import { AppError } from '../common/app-error.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { ParserSqlGuard } from '../sql-guard/parser-sql-guard.js';
import type { TablePolicy } from '../sql-guard/table-policy.js';
import { excludeParentsReadingHidden, type InheritanceEdge } from '../sql-guard/inheritance-policy.js';
import { excludeViewsReadingExcluded, type ViewDefinition } from '../sql-guard/view-policy.js';
import { ConnectionsService } from './connections.service.js';
import type { ConnectionTarget, DialectAdapter } from './dialects/dialect-adapter.js';

/** Our own catalog queries (fixed text, no user input): every view and materialized view outside the system schemas. */
const VIEWS_SQL: Record<Dialect, string> = {
  postgres: `SELECT n.nspname AS "schema", c.relname AS "name", pg_catalog.pg_get_viewdef(c.oid) AS "definition"
    FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('v', 'm') AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'`,
  mysql: `SELECT TABLE_SCHEMA AS \`schema\`, TABLE_NAME AS \`name\`, VIEW_DEFINITION AS \`definition\`
    FROM information_schema.VIEWS
    WHERE TABLE_SCHEMA NOT IN ('mysql', 'sys', 'information_schema', 'performance_schema')`,
  sqlite: `SELECT 'main' AS "schema", name AS "name", sql AS "definition" FROM sqlite_master WHERE type = 'view'`,
};

/**
 * Our own catalog query (fixed text): every PostgreSQL partition and inheritance child with its direct parent
 * (indexes' partitions left out). Partitions of partitions are followed in excludeParentsReadingHidden.
 */
const INHERITANCE_SQL = `SELECT pn.nspname AS "parentSchema", p.relname AS "parentName", cn.nspname AS "childSchema", c.relname AS "childName"
  FROM pg_catalog.pg_inherits i
  JOIN pg_catalog.pg_class p ON p.oid = i.inhparent JOIN pg_catalog.pg_namespace pn ON pn.oid = p.relnamespace
  JOIN pg_catalog.pg_class c ON c.oid = i.inhrelid JOIN pg_catalog.pg_namespace cn ON cn.oid = c.relnamespace
  WHERE p.relkind NOT IN ('i', 'I') AND pn.nspname !~ '^pg_' AND pn.nspname <> 'information_schema'
    AND cn.nspname !~ '^pg_' AND cn.nspname <> 'information_schema'`;
/** More partitions and children than this: refused rather than half checked. */
const MAX_INHERITANCE_EDGES = 100_000;
const INHERITANCE_MAX_BYTES = 64 * 1024 * 1024;

/** More views than this on one connection with exclusions: refused rather than half checked. */
const MAX_VIEWS = 10_000;
/** A definition longer than the guard parses is cut by the budget, does not parse, and excludes its view. */
const DEFINITION_MAX_BYTES = 256 * 1024;
/** All definitions together; beyond it the views are refused rather than half checked. */
const DEFINITIONS_MAX_BYTES = 32 * 1024 * 1024;

interface Lookup {
  adapter: DialectAdapter;
  target: ConnectionTarget;
  signal?: AbortSignal;
}

/**
 * The table policy as the guard and introspection must apply it: the owner's exclusions, plus every PostgreSQL
 * parent whose partitions or inheritance children include a hidden table (excluded, or outside an allowlist:
 * `SELECT * FROM events` reads the excluded `events_secret`), plus every view that reads an excluded table
 * (`secrets_view` over an excluded `secrets` would show its rows under another name). They are read from the database's catalog and kept per connection for SCHEMA_CACHE_TTL_S, like the schema;
 * a change of the connection (its policy or functions) drops the entry.
 */
@Injectable()
export class ViewPolicy {
  private readonly guard = new ParserSqlGuard();
  private readonly cache: LRUCache<string, TablePolicy, Lookup>;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connections: ConnectionsService,
  ) {
    this.cache = new LRUCache<string, TablePolicy, Lookup>({
      max: config.POOL_CACHE_MAX,
      ttl: Math.max(1, config.SCHEMA_CACHE_TTL_S * 1000),
      ignoreFetchAbort: true,
      fetchMethod: (_key, _stale, { context }) => this.compute(context),
    });
    connections.onChange((id) => {
      for (const key of [...this.cache.keys()]) if (key.startsWith(`${id}\u0000`)) this.cache.delete(key);
    });
  }

  /**
   * The connection's policy with the parents of hidden tables and the views that read excluded tables excluded too;
   * as stored when nothing is excluded (and, on PostgreSQL, nothing is listed either).
   */
  async effective(adapter: DialectAdapter, target: ConnectionTarget, signal?: AbortSignal): Promise<TablePolicy | undefined> {
    const policy = target.tablePolicy;
    const allowlist = target.dialect === 'postgres' && (policy?.allowed.length ?? 0) > 0;
    if (!policy || (policy.excluded.length === 0 && !allowlist)) return policy;
    // Keyed by what decides the answer too, so another process's change is never answered from an old entry.
    const key = `${target.id}\u0000${JSON.stringify([policy, target.allowedFunctions ?? [], target.database ?? null])}`;
    const effective = await this.cache.fetch(key, { context: { adapter, target, signal } });
    if (!effective) throw new Error('view policy returned nothing');
    return effective;
  }

  private async compute(lookup: Lookup): Promise<TablePolicy> {
    // Parents first: a view over a parent that reads an excluded partition is then excluded with it.
    const policy = lookup.target.dialect === 'postgres' ? await this.withParents(lookup) : lookup.target.tablePolicy!;
    return policy.excluded.length === 0 ? policy : this.withViews(lookup, policy);
  }

  private async withParents({ adapter, target, signal }: Lookup): Promise<TablePolicy> {
    const result = await adapter.executeReadOnly(INHERITANCE_SQL, {
      maxRows: MAX_INHERITANCE_EDGES,
      timeoutMs: this.connections.executionLimits(target).timeoutMs,
      signal,
      appendLimit: true,
      budgets: { cellMaxBytes: 1024, resultMaxBytes: INHERITANCE_MAX_BYTES },
    });
    if (result.truncated) {
      throw new AppError('SQL_REJECTED', `SQL rejected: this database's partitions and inheritance children (more than ${MAX_INHERITANCE_EDGES.toLocaleString('en')}) cannot all be checked against the connection's table policy`);
    }
    const edges: InheritanceEdge[] = result.rows.map((row) => ({
      parentSchema: String(row.parentSchema),
      parentName: String(row.parentName),
      childSchema: String(row.childSchema),
      childName: String(row.childName),
    }));
    return excludeParentsReadingHidden(edges, target.tablePolicy!);
  }

  private async withViews({ adapter, target, signal }: Lookup, policy: TablePolicy): Promise<TablePolicy> {
    const result = await adapter.executeReadOnly(VIEWS_SQL[target.dialect], {
      maxRows: MAX_VIEWS,
      timeoutMs: this.connections.executionLimits(target).timeoutMs,
      signal,
      appendLimit: true,
      budgets: { cellMaxBytes: DEFINITION_MAX_BYTES, resultMaxBytes: DEFINITIONS_MAX_BYTES },
    });
    if (result.truncated) {
      throw new AppError('SQL_REJECTED', `SQL rejected: this database's views (more than ${MAX_VIEWS.toLocaleString('en')}, or over 32 MB of definitions) cannot all be checked against the connection's table policy`);
    }
    const views: ViewDefinition[] = result.rows.map((row) => ({
      schema: typeof row.schema === 'string' ? row.schema : null,
      name: String(row.name),
      definition: typeof row.definition === 'string' && row.definition.trim() !== '' ? row.definition : null,
    }));
    return excludeViewsReadingExcluded(this.guard, target.dialect, views, policy, { allowedFunctions: target.allowedFunctions });
  }
}
