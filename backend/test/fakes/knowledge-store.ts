import type { Updateable } from 'kysely';
import type { KnowledgeExamplesRepository } from '../../src/storage/repositories/knowledge/examples.repository.js';
import type { KnowledgeGlossaryRepository } from '../../src/storage/repositories/knowledge/glossary.repository.js';
import type { KnowledgeInstructionsRepository } from '../../src/storage/repositories/knowledge/instructions.repository.js';
import type { KnowledgeRepositories, KnowledgeStore } from '../../src/storage/repositories/knowledge/knowledge-store.js';
import type { KnowledgeLearningsRepository } from '../../src/storage/repositories/knowledge/learnings.repository.js';
import type { KnowledgeTableNotesRepository } from '../../src/storage/repositories/knowledge/table-notes.repository.js';
import type { KnowledgeExamplesTable, KnowledgeGlossaryTable, KnowledgeInstructionsTable, KnowledgeLearningsTable, KnowledgeTableNotesTable } from '../../src/storage/schema.js';
import type { Public, Shape } from './fake.js';

/** Rows of one knowledge table, addressed by connection and id as the repositories address them. */
class Rows<R extends { id: string; connection_id: string }> {
  readonly rows: R[] = [];

  protected of(connectionId: string): R[] {
    return this.rows.filter((r) => r.connection_id === connectionId);
  }

  async count(connectionId: string): Promise<number> {
    return this.of(connectionId).length;
  }

  async update(connectionId: string, id: string, patch: Updateable<R>): Promise<boolean> {
    const row = this.of(connectionId).find((r) => r.id === id);
    if (row) Object.assign(row, patch);
    return row !== undefined;
  }

  async delete(connectionId: string, id: string): Promise<boolean> {
    const index = this.rows.findIndex((r) => r.connection_id === connectionId && r.id === id);
    if (index >= 0) this.rows.splice(index, 1);
    return index >= 0;
  }

  async deleteAll(connectionId: string): Promise<void> {
    for (const row of this.of(connectionId)) this.rows.splice(this.rows.indexOf(row), 1);
  }
}

/** Rows whose repository finds one by id. */
class RowsById<R extends { id: string; connection_id: string }> extends Rows<R> {
  async find(connectionId: string, id: string): Promise<R | undefined> {
    return this.of(connectionId).find((r) => r.id === id);
  }
}

class FakeInstructions implements Public<KnowledgeInstructionsRepository> {
  readonly rows = new Map<string, KnowledgeInstructionsTable>();
  async find(connectionId: string) {
    return this.rows.get(connectionId);
  }
  async put(row: KnowledgeInstructionsTable) {
    this.rows.set(row.connection_id, { ...row });
  }
  async deleteAll(connectionId: string) {
    this.rows.delete(connectionId);
  }
}

class FakeGlossary extends RowsById<KnowledgeGlossaryTable> implements Public<KnowledgeGlossaryRepository> {
  async list(connectionId: string) {
    return [...this.of(connectionId)].sort((a, b) => a.term_key.localeCompare(b.term_key));
  }
  async findByTerm(connectionId: string, termKey: string) {
    return this.of(connectionId).find((r) => r.term_key === termKey);
  }
  /** The unique key (connection, term_key) as the database keeps it. */
  async insert(row: KnowledgeGlossaryTable) {
    if (await this.findByTerm(row.connection_id, row.term_key)) throw new Error('unique constraint: knowledge_glossary (connection_id, term_key)');
    this.rows.push({ ...row });
  }
}

class FakeTableNotes extends Rows<KnowledgeTableNotesTable> implements Public<KnowledgeTableNotesRepository> {
  async list(connectionId: string) {
    return [...this.of(connectionId)];
  }
  async find(connectionId: string, schemaName: string, tableName: string) {
    return this.of(connectionId).find((r) => r.schema_name === schemaName && r.table_name === tableName);
  }
  /** Upsert on (connection, schema, table): the row keeps its id. */
  async put(row: KnowledgeTableNotesTable) {
    const existing = await this.find(row.connection_id, row.schema_name, row.table_name);
    if (existing) Object.assign(existing, { description: row.description, column_notes: row.column_notes, data_quality: row.data_quality, updated_at: row.updated_at });
    else this.rows.push({ ...row });
  }
}

class FakeExamples extends RowsById<KnowledgeExamplesTable> implements Public<KnowledgeExamplesRepository> {
  async list(connectionId: string) {
    return [...this.of(connectionId)];
  }
  async listForIndex(connectionId: string) {
    return this.of(connectionId).map(({ id, question, sql }) => ({ id, question, sql }));
  }
  async findByContent(connectionId: string, contentKey: string) {
    return this.of(connectionId).find((r) => r.content_key === contentKey);
  }
  async revision(connectionId: string) {
    const rows = this.of(connectionId);
    return `${rows.length}:${rows.map((r) => r.updated_at).sort().at(-1) ?? ''}`;
  }
  async insert(row: KnowledgeExamplesTable) {
    if (await this.findByContent(row.connection_id, row.content_key)) return false;
    this.rows.push({ ...row });
    return true;
  }
}

class FakeLearnings extends RowsById<KnowledgeLearningsTable> implements Public<KnowledgeLearningsRepository> {
  async list(connectionId: string, limit?: number) {
    const sorted = [...this.of(connectionId)].sort((a, b) => b.confidence - a.confidence || b.updated_at.localeCompare(a.updated_at));
    return limit === undefined ? sorted : sorted.slice(0, limit);
  }
  async findByContent(connectionId: string, contentKey: string) {
    return this.of(connectionId).find((r) => r.content_key === contentKey);
  }
  /** Insert, or on the same (connection, content_key) raise the kept row's confidence up to the cap. */
  async record(row: KnowledgeLearningsTable, maxConfidence: number) {
    const existing = await this.findByContent(row.connection_id, row.content_key);
    if (!existing) {
      this.rows.push({ ...row });
      return { ...row };
    }
    existing.confidence = Math.min(maxConfidence, existing.confidence + row.confidence);
    existing.updated_at = row.updated_at;
    return { ...existing };
  }
}

/** KnowledgeStore in memory; `transaction` runs the work on the same rows (no rollback). */
export class FakeKnowledgeStore implements Shape<KnowledgeStore> {
  readonly instructions = new FakeInstructions();
  readonly glossary = new FakeGlossary();
  readonly tables = new FakeTableNotes();
  readonly examples = new FakeExamples();
  readonly learnings = new FakeLearnings();

  transaction<T>(work: (repositories: KnowledgeRepositories) => Promise<T>): Promise<T> {
    return work(this as unknown as KnowledgeRepositories);
  }
}
