import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { KNOWLEDGE_FIELD_LIMITS, type Learning } from '@aigis/contracts';
import { AppError, isAppError } from '../common/app-error.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { KnowledgeStore } from '../storage/repositories/knowledge/knowledge-store.js';
import { ReadOnlyExecutor } from '../query/read-only-executor.js';
import { QueryAuditRepository } from '../storage/repositories/query-audit.repository.js';
import { learningKey, normaliseText } from './content-key.js';
import { readList, toLearning } from './knowledge-rows.js';
import { KnowledgeService, tooMany } from './knowledge.service.js';
import type { LearningInput, LearningPatchInput } from '@aigis/contracts';

/** Successful statements of a thread searched for the working SQL of a learning. */
const RECENT_STATEMENTS = 50;

/**
 * Learned corrections: recorded by the agent (save_learning), reviewed, edited and deleted by the owner.
 * A repeat of the same content raises the confidence of the one row instead of adding another.
 */
@Injectable()
export class LearningsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: KnowledgeStore,
    private readonly knowledge: KnowledgeService,
    private readonly audit: QueryAuditRepository,
    private readonly clock: Clock,
    private readonly executor: ReadOnlyExecutor,
  ) {}

  async list(userId: string, connectionId: string): Promise<Learning[]> {
    await this.knowledge.owned(userId, connectionId);
    return (await this.store.learnings.list(connectionId)).map(toLearning);
  }

  /**
   * From the agent, during a turn of `threadId`. The model's word is not enough: the working SQL must be one that
   * ran successfully in this thread on this connection (the audit log says so), so text steered by a database
   * value cannot become a "correction" that later prompts trust.
   */
  async record(userId: string, connectionId: string, threadId: string, input: LearningInput): Promise<{ learning: Learning; repeated: boolean }> {
    await this.knowledge.owned(userId, connectionId);
    const ran = await this.audit.okSqlInThread(userId, connectionId, threadId, RECENT_STATEMENTS);
    const wanted = normaliseText(input.working_sql);
    if (!ran.some((sql) => normaliseText(sql) === wanted)) {
      throw new AppError('VALIDATION_FAILED', 'working_sql: must be a query that ran successfully in this conversation (copy it exactly as it ran).');
    }
    const key = learningKey(input);
    const existing = await this.store.learnings.findByContent(connectionId, key);
    if (!existing && (await this.store.learnings.count(connectionId)) >= this.config.KNOWLEDGE_MAX_LEARNINGS) {
      throw tooMany('learnings', this.config.KNOWLEDGE_MAX_LEARNINGS, 'KNOWLEDGE_MAX_LEARNINGS');
    }
    const now = this.clock.iso();
    const row = await this.store.learnings.record(
      {
        id: crypto.randomUUID(),
        connection_id: connectionId,
        category: input.category,
        tables: JSON.stringify(input.tables),
        failed_sql: input.failed_sql ?? null,
        working_sql: input.working_sql,
        lesson: input.lesson,
        content_key: key,
        confidence: 1,
        thread_id: threadId,
        created_at: now,
        updated_at: now,
      },
      KNOWLEDGE_FIELD_LIMITS.confidence,
    );
    return { learning: toLearning(row), repeated: existing !== undefined };
  }

  async update(userId: string, connectionId: string, id: string, patch: LearningPatchInput): Promise<Learning> {
    await this.knowledge.owned(userId, connectionId);
    if (patch.working_sql !== undefined) await this.checkWorkingSql(userId, connectionId, patch.working_sql, 'working_sql');
    const current = await this.store.learnings.find(connectionId, id);
    if (!current) throw AppError.notFound('Learning');
    const merged = {
      category: patch.category ?? current.category,
      tables: patch.tables ?? readList(current.tables),
      working_sql: patch.working_sql ?? current.working_sql,
      lesson: patch.lesson ?? current.lesson,
    };
    const key = learningKey(merged);
    const same = await this.store.learnings.findByContent(connectionId, key);
    if (same && same.id !== id) throw new AppError('CONFLICT', 'Another learning already says this; edit or delete that one instead.');
    const changes = {
      category: merged.category,
      tables: JSON.stringify(merged.tables),
      working_sql: merged.working_sql,
      lesson: merged.lesson,
      ...(patch.failed_sql !== undefined ? { failed_sql: patch.failed_sql } : {}),
      ...(patch.confidence !== undefined ? { confidence: patch.confidence } : {}),
      content_key: key,
      updated_at: this.clock.iso(),
    };
    if (!(await this.store.learnings.update(connectionId, id, changes))) throw AppError.notFound('Learning');
    return toLearning({ ...current, ...changes });
  }

  /**
   * Working SQL written by hand or imported must be SQL the guard would run on this connection (a read-only query
   * within its table policy): it goes into prompts as SQL that works. 400 naming the field otherwise.
   */
  async checkWorkingSql(userId: string, connectionId: string, sql: string, field: string): Promise<void> {
    try {
      await this.executor.check({ userId, connectionId, sql });
    } catch (error) {
      if (isAppError(error) && error.code === 'SQL_REJECTED') throw new AppError('VALIDATION_FAILED', `${field}: ${error.message}`);
      throw error;
    }
  }

  async delete(userId: string, connectionId: string, id: string): Promise<void> {
    await this.knowledge.owned(userId, connectionId);
    if (!(await this.store.learnings.delete(connectionId, id))) throw AppError.notFound('Learning');
  }
}
