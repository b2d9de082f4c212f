import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { KNOWLEDGE_FIELD_LIMITS, KNOWLEDGE_FORMAT, KNOWLEDGE_FORMAT_VERSION, type KnowledgeFile, type KnowledgeImportResult } from '@aigis/contracts';
import { AppError, isAppError } from '../common/app-error.js';
import { Clock } from '../common/clock.js';
import { describeIssues } from '../common/zod.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import type { KnowledgeRepositories } from '../storage/repositories/knowledge/knowledge-store.js';
import { KnowledgeStore } from '../storage/repositories/knowledge/knowledge-store.js';
import type { KnowledgeExamplesTable } from '../storage/schema.js';
import { exampleKey, learningKey } from './content-key.js';
import { ExamplesService } from './examples.service.js';
import { readList, readMap } from './knowledge-rows.js';
import { glossaryColumns, KnowledgeService, tableNoteColumns, tooMany } from './knowledge.service.js';
import { type KnowledgeFileInput, knowledgeFileSchema } from '@aigis/contracts';
import { LearningsService } from './learnings.service.js';
import { ExampleRetrieval } from './retrieval/example-retrieval.service.js';

type ImportMode = KnowledgeImportResult['mode'];

/**
 * A connection's knowledge as one versioned JSON file, and back into any connection of the caller. Examples are
 * verified again on the target (guard and a read-only run, one at a time); the ones that fail there are left
 * out and listed. Everything else lands in one storage transaction: all of it, or nothing.
 */
@Injectable()
export class KnowledgeTransferService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: KnowledgeStore,
    private readonly knowledge: KnowledgeService,
    private readonly examples: ExamplesService,
    private readonly retrieval: ExampleRetrieval,
    private readonly clock: Clock,
    private readonly learnings: LearningsService,
  ) {}

  async export(userId: string, connectionId: string): Promise<KnowledgeFile> {
    const connection = await this.knowledge.owned(userId, connectionId);
    const [instructions, glossary, tables, examples, learnings] = await this.knowledge.readAll(connectionId);
    return {
      format: KNOWLEDGE_FORMAT,
      version: KNOWLEDGE_FORMAT_VERSION,
      exported_at: this.clock.iso(),
      dialect: connection.dialect,
      instructions: instructions?.text ?? '',
      glossary: glossary.map((g) => ({ term: g.term, definition: g.definition, sql: g.sql, unit: g.unit, caveats: readList(g.caveats) })),
      tables: tables.map((t) => ({
        schema: t.schema_name === '' ? null : t.schema_name,
        table: t.table_name,
        description: t.description,
        columns: readMap(t.column_notes),
        data_quality: readList(t.data_quality),
      })),
      examples: examples.map((e) => ({ question: e.question, sql: e.sql })),
      learnings: learnings.map((l) => ({
        category: l.category as KnowledgeFile['learnings'][number]['category'],
        tables: readList(l.tables),
        failed_sql: l.failed_sql,
        working_sql: l.working_sql,
        lesson: l.lesson,
        confidence: l.confidence,
      })),
    };
  }

  /** Validates the file (400 with every problem), verifies its examples on this connection, then writes. */
  async import(userId: string, connectionId: string, body: unknown, mode: ImportMode, signal?: AbortSignal): Promise<KnowledgeImportResult> {
    // The file first, like every route's body: a malformed one is a 400 whatever the connection.
    const file = this.parse(body);
    await this.knowledge.owned(userId, connectionId);
    for (const [index, learning] of file.learnings.entries()) {
      await this.learnings.checkWorkingSql(userId, connectionId, learning.working_sql, `learnings.${index}.working_sql`);
    }
    const result: KnowledgeImportResult = {
      mode,
      instructions: 'kept',
      glossary: { added: 0, updated: 0 },
      tables: { added: 0, updated: 0 },
      examples: { added: 0, skipped: 0, rejected: 0 },
      learnings: { added: 0, merged: 0 },
      rejected_examples: [],
    };
    const examples = await this.verifiedExamples(userId, connectionId, file, mode, result, signal);
    await this.store.transaction(async (repos) => {
      if (mode === 'replace') await clearAll(repos, connectionId);
      await this.writeInstructions(repos, connectionId, file.instructions, mode, result);
      await this.writeGlossary(repos, connectionId, file, result);
      await this.writeTables(repos, connectionId, file, result);
      for (const row of examples) {
        if (await repos.examples.insert(row)) result.examples.added++;
        else result.examples.skipped++;
      }
      await this.examples.refuseWhenFull(repos.examples, connectionId, 0);
      await this.writeLearnings(repos, connectionId, file, result);
    });
    this.retrieval.invalidate(connectionId);
    return result;
  }

  private parse(body: unknown): KnowledgeFileInput {
    const schema = knowledgeFileSchema({
      glossary: this.config.KNOWLEDGE_MAX_GLOSSARY,
      tables: this.config.KNOWLEDGE_MAX_TABLE_NOTES,
      examples: this.config.KNOWLEDGE_MAX_EXAMPLES,
      learnings: this.config.KNOWLEDGE_MAX_LEARNINGS,
    });
    const parsed = schema.safeParse(body ?? {});
    if (!parsed.success) {
      throw new AppError('VALIDATION_FAILED', `Not a knowledge file this server can import: ${describeIssues(parsed.error)}`, {
        issues: parsed.error.issues.slice(0, 100).map((i) => ({ path: i.path.join('.'), message: i.message })),
      });
    }
    return parsed.data;
  }

  /** Runs each new example on this connection; the ones that fail are reported, not imported. */
  private async verifiedExamples(
    userId: string,
    connectionId: string,
    file: KnowledgeFileInput,
    mode: ImportMode,
    result: KnowledgeImportResult,
    signal?: AbortSignal,
  ): Promise<KnowledgeExamplesTable[]> {
    const rows: KnowledgeExamplesTable[] = [];
    const seen = new Set<string>();
    for (const [index, example] of file.examples.entries()) {
      signal?.throwIfAborted();
      const key = exampleKey(example.question, example.sql);
      if (seen.has(key) || (mode === 'merge' && (await this.store.examples.findByContent(connectionId, key)))) {
        result.examples.skipped++;
        continue;
      }
      seen.add(key);
      try {
        const verification = await this.examples.verify(userId, connectionId, example.sql, { signal });
        rows.push(this.examples.newRow(connectionId, example, key, verification, { source: 'import' }));
      } catch (error) {
        // What the example cannot fix (the connection is down, the user's query limit) stops the import.
        if (!isAppError(error) || !['SQL_REJECTED', 'VALIDATION_FAILED'].includes(error.code)) throw error;
        result.examples.rejected++;
        result.rejected_examples.push({ index, question: example.question, code: error.code, message: error.message });
      }
    }
    return rows;
  }

  private async writeInstructions(repos: KnowledgeRepositories, connectionId: string, text: string, mode: ImportMode, result: KnowledgeImportResult): Promise<void> {
    const current = mode === 'replace' ? '' : ((await repos.instructions.find(connectionId))?.text ?? '');
    if (!text || text === current || current.includes(text)) return;
    const merged = current ? `${current}\n\n${text}` : text;
    if (merged.length > KNOWLEDGE_FIELD_LIMITS.instructions) {
      throw new AppError(
        'VALIDATION_FAILED',
        `instructions: this connection's instructions and the file's together exceed ${KNOWLEDGE_FIELD_LIMITS.instructions.toLocaleString('en')} characters; shorten one, or import with mode=replace.`,
      );
    }
    await repos.instructions.put({ connection_id: connectionId, text: merged, updated_at: this.clock.iso() });
    result.instructions = current ? 'appended' : 'replaced';
  }

  private async writeGlossary(repos: KnowledgeRepositories, connectionId: string, file: KnowledgeFileInput, result: KnowledgeImportResult): Promise<void> {
    const now = this.clock.iso();
    for (const entry of file.glossary) {
      const columns = glossaryColumns(entry);
      const existing = await repos.glossary.findByTerm(connectionId, columns.term_key);
      if (existing) {
        await repos.glossary.update(connectionId, existing.id, { ...columns, updated_at: now });
        result.glossary.updated++;
      } else {
        await repos.glossary.insert({ id: crypto.randomUUID(), connection_id: connectionId, ...columns, created_at: now, updated_at: now });
        result.glossary.added++;
      }
    }
    if ((await repos.glossary.count(connectionId)) > this.config.KNOWLEDGE_MAX_GLOSSARY) {
      throw tooMany('glossary terms', this.config.KNOWLEDGE_MAX_GLOSSARY, 'KNOWLEDGE_MAX_GLOSSARY');
    }
  }

  private async writeTables(repos: KnowledgeRepositories, connectionId: string, file: KnowledgeFileInput, result: KnowledgeImportResult): Promise<void> {
    const now = this.clock.iso();
    for (const note of file.tables) {
      const columns = tableNoteColumns(note);
      const existing = await repos.tables.find(connectionId, columns.schema_name, columns.table_name);
      await repos.tables.put({ id: existing?.id ?? crypto.randomUUID(), connection_id: connectionId, ...columns, updated_at: now });
      if (existing) result.tables.updated++;
      else result.tables.added++;
    }
    if ((await repos.tables.count(connectionId)) > this.config.KNOWLEDGE_MAX_TABLE_NOTES) {
      throw tooMany('table notes', this.config.KNOWLEDGE_MAX_TABLE_NOTES, 'KNOWLEDGE_MAX_TABLE_NOTES');
    }
  }

  private async writeLearnings(repos: KnowledgeRepositories, connectionId: string, file: KnowledgeFileInput, result: KnowledgeImportResult): Promise<void> {
    const now = this.clock.iso();
    for (const learning of file.learnings) {
      const key = learningKey(learning);
      const existing = await repos.learnings.findByContent(connectionId, key);
      if (existing) {
        // The same learning on both sides: it keeps the higher confidence (not their sum, so a round trip changes nothing).
        if (learning.confidence > existing.confidence) await repos.learnings.update(connectionId, existing.id, { confidence: learning.confidence, updated_at: now });
        result.learnings.merged++;
        continue;
      }
      await repos.learnings.record(
        {
          id: crypto.randomUUID(),
          connection_id: connectionId,
          category: learning.category,
          tables: JSON.stringify(learning.tables),
          failed_sql: learning.failed_sql ?? null,
          working_sql: learning.working_sql,
          lesson: learning.lesson,
          content_key: key,
          confidence: learning.confidence,
          thread_id: null,
          created_at: now,
          updated_at: now,
        },
        KNOWLEDGE_FIELD_LIMITS.confidence,
      );
      result.learnings.added++;
    }
    if ((await repos.learnings.count(connectionId)) > this.config.KNOWLEDGE_MAX_LEARNINGS) {
      throw tooMany('learnings', this.config.KNOWLEDGE_MAX_LEARNINGS, 'KNOWLEDGE_MAX_LEARNINGS');
    }
  }
}

async function clearAll(repos: KnowledgeRepositories, connectionId: string): Promise<void> {
  await Promise.all([
    repos.instructions.deleteAll(connectionId),
    repos.glossary.deleteAll(connectionId),
    repos.tables.deleteAll(connectionId),
    repos.examples.deleteAll(connectionId),
    repos.learnings.deleteAll(connectionId),
  ]);
}
