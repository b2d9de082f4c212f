import { Inject, Injectable } from '@nestjs/common';
import type { SchemaResponse, TableNote } from '@aigis/contracts';
import { LRUCache } from 'lru-cache';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { UserLimits } from '../limits/user-limits.service.js';
import { ConnectionsService } from './connections.service.js';
import type { ConnectionTarget, DialectAdapter } from './dialects/dialect-adapter.js';
import { renderSchemaMarkdown } from './introspection/schema-markdown.js';
import { matchTableNotes } from './introspection/table-notes.js';
import { visibleTables } from './introspection/table-visibility.js';
import { schemaForQuestion } from './introspection/schema-selection.js';
import { buildRelevanceIndex, type RelevanceIndex } from './introspection/table-relevance.js';
import { compilePolicy, tableVisible } from '../sql-guard/table-policy.js';
import { ViewPolicy } from './view-policy.service.js';

/** The schema as one question's prompt gives it. */
type PromptSchema = Pick<SchemaResponse, 'markdown' | 'markdown_mode'>;

/** Selections kept per introspected schema (each at most SCHEMA_PROMPT_BUDGET characters). */
const RECENT_SELECTIONS = 16;

/** What one introspection needs; it runs for the first caller and every concurrent caller shares it. */
interface Introspection {
  userId: string;
  adapter: DialectAdapter;
  target: ConnectionTarget;
  signal?: AbortSignal;
}

/**
 * Introspection results per connection in an lru-cache: at most POOL_CACHE_MAX schemas (one per cached pool),
 * each for SCHEMA_CACHE_TTL_S. Concurrent requests share one introspection in flight (lru-cache's fetch); a failed
 * one is not cached, nor is one that finishes after its connection changed. Ownership is checked on every call,
 * cache or not.
 */
@Injectable()
export class SchemaService {
  private readonly cache: LRUCache<string, SchemaResponse, Introspection>;
  /**
   * Built on the first question about a large schema, dropped with its introspection result: the relevance index,
   * and the last selections made with it (a turn asks for the same question's schema up to three times: the
   * assistant before and after ask_database, and the SQL writer).
   */
  private readonly selections = new WeakMap<SchemaResponse, { index: RelevanceIndex; recent: LRUCache<string, PromptSchema> }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connections: ConnectionsService,
    private readonly limits: UserLimits,
    private readonly views: ViewPolicy,
  ) {
    this.cache = new LRUCache<string, SchemaResponse, Introspection>({
      max: config.POOL_CACHE_MAX,
      // A TTL of 0 keeps nothing beyond the introspection in flight (lru-cache reads 0 as "no TTL").
      ttl: Math.max(1, config.SCHEMA_CACHE_TTL_S * 1000),
      // A change of the connection deletes its entry; an introspection then in flight still answers its callers.
      ignoreFetchAbort: true,
      fetchMethod: (_id, _stale, { context }) => this.introspect(context),
    });
    connections.onChange((id) => this.cache.delete(id));
  }

  async get(userId: string, connectionId: string, options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<SchemaResponse> {
    const { adapter, target } = await this.connections.adapterFor(userId, connectionId);
    const schema = await this.cache.fetch(connectionId, { forceRefresh: options.refresh, context: { userId, adapter, target, signal: options.signal } });
    if (!schema) throw new Error('introspection returned nothing');
    return schema;
  }

  /**
   * The schema as a prompt gives it for one question: the whole schema when it fits in detail, else the tables most
   * relevant to the question in full and the others by name (the model uses describe_table for those). The owner's
   * table and column notes (`notes`, from the connection's knowledge) are shown with their tables, within the budget.
   */
  async promptSchema(
    userId: string,
    connectionId: string,
    question: string,
    options: { signal?: AbortSignal; hintTables?: readonly string[]; notes?: readonly TableNote[] } = {},
  ): Promise<PromptSchema> {
    const schema = await this.get(userId, connectionId, { signal: options.signal });
    const notes = options.notes ?? [];
    const budgetChars = this.config.SCHEMA_PROMPT_BUDGET;
    if (schema.markdown_mode === 'full' || schema.markdown_mode === 'no_samples') {
      const matched = matchTableNotes(schema.tables, notes);
      if (matched.size === 0) return { markdown: schema.markdown, markdown_mode: schema.markdown_mode };
      // The cached rendering has no notes: rendered again with them, it may need less detail (then a selection).
      const whole = renderSchemaMarkdown(schema.tables, { dialect: schema.dialect, budgetChars, notes: matched });
      if (whole.markdown_mode === 'full' || whole.markdown_mode === 'no_samples') return { markdown: whole.markdown, markdown_mode: whole.markdown_mode };
    }
    let entry = this.selections.get(schema);
    if (!entry) this.selections.set(schema, (entry = { index: buildRelevanceIndex(schema.tables), recent: new LRUCache({ max: RECENT_SELECTIONS }) }));
    // The notes' versions are part of the key: an edited note is shown at the next question.
    const key = `${options.hintTables?.join('\u0000') ?? ''}\u0001${notes.map((n) => `${n.id}@${n.updated_at}`).join(',')}\u0001${question}`;
    const known = entry.recent.get(key);
    if (known) return known;
    const { markdown, markdown_mode } = schemaForQuestion(entry.index, question, {
      dialect: schema.dialect,
      budgetChars,
      hintTables: options.hintTables,
      notes: matchTableNotes(schema.tables, notes),
    });
    entry.recent.set(key, { markdown, markdown_mode });
    return { markdown, markdown_mode };
  }

  private async introspect({ userId, adapter, target, signal }: Introspection): Promise<SchemaResponse> {
    const started = performance.now();
    // An introspection (catalog and sample-row queries) counts as one of the user's queries.
    const release = this.limits.query(userId);
    try {
      // Excluded tables (and those outside an allowlist), and views that read excluded tables, are never sampled,
      // listed, described or given to a model.
      const tablePolicy = await this.views.effective(adapter, target, signal);
      const policy = compilePolicy(target.dialect, tablePolicy, target.dialect === 'mysql' ? target.database : undefined);
      const result = await adapter.introspect({
        sampleRows: 3,
        sampleConcurrency: this.config.SCHEMA_SAMPLE_CONCURRENCY,
        sampleTimeoutMs: Math.min(this.config.SCHEMA_SAMPLE_TIMEOUT_MS, this.connections.executionLimits(target).timeoutMs),
        signal,
        ...(policy ? { includeTable: (schema: string | null, name: string) => tableVisible(policy, schema ?? undefined, name) } : {}),
      });
      const tables = visibleTables(result.tables, policy);
      const { markdown, markdown_mode } = renderSchemaMarkdown(tables, { dialect: target.dialect, budgetChars: this.config.SCHEMA_PROMPT_BUDGET });
      return {
        dialect: target.dialect,
        tables,
        markdown,
        markdown_mode,
        introspected_at: new Date().toISOString(),
        elapsed_ms: Math.round(performance.now() - started),
        catalog_queries: result.catalogQueries,
      };
    } finally {
      release();
    }
  }
}
