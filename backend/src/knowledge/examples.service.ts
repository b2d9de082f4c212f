import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { ExampleQuery } from '@aigis/contracts';
import { AppError, isAppError } from '../common/app-error.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { ReadOnlyExecutor } from '../query/read-only-executor.js';
import type { KnowledgeExamplesRepository } from '../storage/repositories/knowledge/examples.repository.js';
import { KnowledgeStore } from '../storage/repositories/knowledge/knowledge-store.js';
import type { KnowledgeExamplesTable } from '../storage/schema.js';
import { exampleKey } from './content-key.js';
import { toExample } from './knowledge-rows.js';
import { KnowledgeService, tooMany } from './knowledge.service.js';
import type { ExampleInput } from '@aigis/contracts';
import { ExampleRetrieval } from './retrieval/example-retrieval.service.js';

/** Rows fetched when an example is verified: enough to prove it runs, without holding a large result. */
const VERIFY_ROWS = 100;

/** The result of running an example's SQL, or why it may not be kept. */
export type Verification = Pick<KnowledgeExamplesTable, 'row_count' | 'columns' | 'elapsed_ms' | 'verified_at'>;

export interface ExampleOrigin {
  source: ExampleQuery['source'];
  threadId?: string | null;
  signal?: AbortSignal;
}

/**
 * Example queries (question + SQL). Every one is verified before it is kept: its SQL goes through the same guard
 * and read-only executor as ask_database (audited like any query), and one the guard refuses is a 400
 * SQL_REJECTED, one that fails in the database a 400 VALIDATION_FAILED with the database's message.
 */
@Injectable()
export class ExamplesService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: KnowledgeStore,
    private readonly knowledge: KnowledgeService,
    private readonly executor: ReadOnlyExecutor,
    private readonly retrieval: ExampleRetrieval,
    private readonly clock: Clock,
  ) {}

  async list(userId: string, connectionId: string): Promise<ExampleQuery[]> {
    await this.knowledge.owned(userId, connectionId);
    return (await this.store.examples.list(connectionId)).map(toExample);
  }

  async add(userId: string, connectionId: string, input: ExampleInput, origin: ExampleOrigin): Promise<ExampleQuery> {
    await this.knowledge.owned(userId, connectionId);
    const key = exampleKey(input.question, input.sql);
    const same = await this.store.examples.findByContent(connectionId, key);
    if (same) return toExample(same);
    await this.refuseWhenFull(this.store.examples, connectionId);
    const verification = await this.verify(userId, connectionId, input.sql, origin);
    const row = this.newRow(connectionId, input, key, verification, origin);
    // A concurrent save of the same example: the unique key keeps one, and that one is the answer.
    const inserted = await this.store.examples.insert(row);
    this.retrieval.invalidate(connectionId);
    return toExample(inserted ? row : ((await this.store.examples.findByContent(connectionId, key)) ?? row));
  }

  async update(userId: string, connectionId: string, id: string, input: ExampleInput, signal?: AbortSignal): Promise<ExampleQuery> {
    await this.knowledge.owned(userId, connectionId);
    const current = await this.store.examples.find(connectionId, id);
    if (!current) throw AppError.notFound('Example');
    const key = exampleKey(input.question, input.sql);
    const same = await this.store.examples.findByContent(connectionId, key);
    if (same && same.id !== id) throw new AppError('CONFLICT', 'This connection already keeps that example (same question and SQL).');
    // Only changed SQL needs running again.
    const verification = current.sql === input.sql ? current : await this.verify(userId, connectionId, input.sql, { signal });
    const changes = {
      question: input.question,
      sql: input.sql,
      content_key: key,
      row_count: verification.row_count,
      columns: verification.columns,
      elapsed_ms: verification.elapsed_ms,
      verified_at: verification.verified_at,
      updated_at: this.clock.iso(),
    };
    if (!(await this.store.examples.update(connectionId, id, changes))) throw AppError.notFound('Example');
    this.retrieval.invalidate(connectionId);
    return toExample({ ...current, ...changes });
  }

  async delete(userId: string, connectionId: string, id: string): Promise<void> {
    await this.knowledge.owned(userId, connectionId);
    if (!(await this.store.examples.delete(connectionId, id))) throw AppError.notFound('Example');
    this.retrieval.invalidate(connectionId);
  }

  /** Runs the SQL on the connection (guard, read-only transaction, row cap, audit). */
  async verify(userId: string, connectionId: string, sql: string, origin: Pick<ExampleOrigin, 'threadId' | 'signal'>): Promise<Verification> {
    try {
      const result = await this.executor.run({ userId, connectionId, sql, limit: VERIFY_ROWS, threadId: origin.threadId ?? null, signal: origin.signal });
      return { row_count: result.row_count, columns: JSON.stringify(result.columns), elapsed_ms: result.elapsed_ms, verified_at: this.clock.iso() };
    } catch (error) {
      if (isAppError(error) && (error.code === 'QUERY_FAILED' || error.code === 'QUERY_TIMEOUT')) {
        throw new AppError('VALIDATION_FAILED', `sql: the example did not run on this connection: ${error.message}`, {
          issues: [{ path: 'sql', message: error.message }],
          cause_code: error.code,
        });
      }
      throw error;
    }
  }

  newRow(connectionId: string, input: ExampleInput, key: string, verification: Verification, origin: ExampleOrigin): KnowledgeExamplesTable {
    const now = this.clock.iso();
    return {
      id: crypto.randomUUID(),
      connection_id: connectionId,
      question: input.question,
      sql: input.sql,
      content_key: key,
      source: origin.source,
      thread_id: origin.threadId ?? null,
      ...verification,
      created_at: now,
      updated_at: now,
    };
  }

  async refuseWhenFull(examples: KnowledgeExamplesRepository, connectionId: string, adding = 1): Promise<void> {
    if ((await examples.count(connectionId)) + adding > this.config.KNOWLEDGE_MAX_EXAMPLES) {
      throw tooMany('examples', this.config.KNOWLEDGE_MAX_EXAMPLES, 'KNOWLEDGE_MAX_EXAMPLES');
    }
  }
}
