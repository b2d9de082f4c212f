import { Inject, Injectable } from '@nestjs/common';
import type { SchemaResponse } from '@aigis/contracts';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { UserLimits } from '../limits/user-limits.service.js';
import { ConnectionsService } from './connections.service.js';
import { renderSchemaMarkdown } from './introspection/schema-markdown.js';

interface CacheEntry {
  at: number;
  value: Promise<SchemaResponse>;
}

/**
 * Introspection results per connection, cached with a TTL. Concurrent requests share one
 * introspection; a failed one is not cached. Ownership is checked on every call, cache or not.
 */
@Injectable()
export class SchemaService {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connections: ConnectionsService,
    private readonly limits: UserLimits,
  ) {
    connections.onChange((id) => this.cache.delete(id));
  }

  async get(userId: string, connectionId: string, options: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<SchemaResponse> {
    const { adapter, target } = await this.connections.adapterFor(userId, connectionId);
    const hit = this.cache.get(connectionId);
    if (!options.refresh && hit && Date.now() - hit.at < this.config.SCHEMA_CACHE_TTL_S * 1000) return hit.value;

    const started = performance.now();
    // An introspection (catalog and sample-row queries) counts as one of the user's queries.
    const release = this.limits.query(userId);
    const value = adapter
      .introspect({
        sampleRows: 3,
        sampleConcurrency: this.config.SCHEMA_SAMPLE_CONCURRENCY,
        sampleTimeoutMs: this.config.SCHEMA_SAMPLE_TIMEOUT_MS,
        signal: options.signal,
      })
      .then((result): SchemaResponse => {
        const { markdown, mode } = renderSchemaMarkdown(result.tables, { dialect: target.dialect, budgetChars: this.config.SCHEMA_PROMPT_BUDGET });
        return {
          dialect: target.dialect,
          tables: result.tables,
          markdown,
          markdown_mode: mode,
          introspected_at: new Date().toISOString(),
          elapsed_ms: Math.round(performance.now() - started),
          catalog_queries: result.catalogQueries,
        };
      })
      .finally(release);
    const entry = { at: Date.now(), value };
    this.cache.set(connectionId, entry);
    value.catch(() => {
      if (this.cache.get(connectionId) === entry) this.cache.delete(connectionId);
    });
    return value;
  }
}
