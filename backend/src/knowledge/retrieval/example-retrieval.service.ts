import { Injectable } from '@nestjs/common';
import type { IndexedExample } from '../../storage/repositories/knowledge/examples.repository.js';
import { KnowledgeStore } from '../../storage/repositories/knowledge/knowledge-store.js';
import { ExampleIndex, type RankedExample } from './example-index.js';

/** Connections whose index is kept in memory (least recently used dropped first). */
const MAX_CACHED_CONNECTIONS = 200;

interface CacheEntry {
  revision: string;
  index: Promise<ExampleIndex<IndexedExample>>;
}

/**
 * The examples most similar to a question, per connection. Each connection's BM25 index is built once and kept
 * until its examples change: a change in this process drops it at once, and every lookup compares the stored
 * revision (count and newest change, one indexed query), so a change made by another API process is seen too.
 * Ownership is the caller's to check.
 */
@Injectable()
export class ExampleRetrieval {
  private readonly cache = new Map<string, CacheEntry>();

  constructor(private readonly store: KnowledgeStore) {}

  async retrieveExamples(connectionId: string, question: string, k: number): Promise<RankedExample<IndexedExample>[]> {
    if (k <= 0) return [];
    const index = await this.indexFor(connectionId);
    return index.top(question, k);
  }

  /** The connection's examples changed (or it is gone). */
  invalidate(connectionId: string): void {
    this.cache.delete(connectionId);
  }

  private async indexFor(connectionId: string): Promise<ExampleIndex<IndexedExample>> {
    const revision = await this.store.examples.revision(connectionId);
    const hit = this.cache.get(connectionId);
    if (hit && hit.revision === revision) {
      // Most recently used last.
      this.cache.delete(connectionId);
      this.cache.set(connectionId, hit);
      return hit.index;
    }
    const entry: CacheEntry = { revision, index: this.store.examples.listForIndex(connectionId).then((rows) => new ExampleIndex(rows)) };
    this.cache.set(connectionId, entry);
    entry.index.catch(() => {
      if (this.cache.get(connectionId) === entry) this.cache.delete(connectionId);
    });
    while (this.cache.size > MAX_CACHED_CONNECTIONS) this.cache.delete(this.cache.keys().next().value!);
    return entry.index;
  }
}
