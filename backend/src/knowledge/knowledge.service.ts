import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Connection, ConnectionKnowledge, GlossaryEntry, KnowledgeInstructions, TableNote } from '@aigis/contracts';
import { AppError } from '../common/app-error.js';
import { Clock } from '../common/clock.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { ConnectionsService } from '../connections/connections.service.js';
import { KnowledgeStore } from '../storage/repositories/knowledge/knowledge-store.js';
import { termKey } from './content-key.js';
import { toExample, toGlossaryEntry, toLearning, toTableNote } from './knowledge-rows.js';
import type { GlossaryInput, TableNoteParsed } from '@aigis/contracts';

/** Thrown when a connection already keeps as many of a kind as it may (409 CONFLICT). */
export function tooMany(what: string, max: number, setting: string): AppError {
  return new AppError('CONFLICT', `This connection already keeps ${max.toLocaleString('en')} ${what}, the most it may (${setting}). Delete some first.`);
}

/**
 * Instructions, glossary and table notes of a connection. Every call first checks that the connection is the
 * caller's (ConnectionsService answers 404 otherwise, the same as for a connection that does not exist).
 */
@Injectable()
export class KnowledgeService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly store: KnowledgeStore,
    private readonly connections: ConnectionsService,
    private readonly clock: Clock,
  ) {}

  /** The caller's connection, or 404 NOT_FOUND. */
  owned(userId: string, connectionId: string): Promise<Connection> {
    return this.connections.get(userId, connectionId);
  }

  /** Every kind of a connection's knowledge, read at once (the overview and the export). */
  readAll(connectionId: string) {
    return Promise.all([
      this.store.instructions.find(connectionId),
      this.store.glossary.list(connectionId),
      this.store.tables.list(connectionId),
      this.store.examples.list(connectionId),
      this.store.learnings.list(connectionId),
    ]);
  }

  async overview(userId: string, connectionId: string): Promise<ConnectionKnowledge> {
    await this.owned(userId, connectionId);
    const [instructions, glossary, tables, examples, learnings] = await this.readAll(connectionId);
    return {
      connection_id: connectionId,
      instructions: { text: instructions?.text ?? '', updated_at: instructions?.updated_at ?? null },
      glossary: glossary.map(toGlossaryEntry),
      tables: tables.map(toTableNote),
      examples: examples.map(toExample),
      learnings: learnings.map(toLearning),
    };
  }

  async instructions(userId: string, connectionId: string): Promise<KnowledgeInstructions> {
    await this.owned(userId, connectionId);
    const row = await this.store.instructions.find(connectionId);
    return { text: row?.text ?? '', updated_at: row?.updated_at ?? null };
  }

  async setInstructions(userId: string, connectionId: string, text: string): Promise<KnowledgeInstructions> {
    await this.owned(userId, connectionId);
    const updated_at = this.clock.iso();
    await this.store.instructions.put({ connection_id: connectionId, text, updated_at });
    return { text, updated_at };
  }

  async glossary(userId: string, connectionId: string): Promise<GlossaryEntry[]> {
    await this.owned(userId, connectionId);
    return (await this.store.glossary.list(connectionId)).map(toGlossaryEntry);
  }

  async addTerm(userId: string, connectionId: string, input: GlossaryInput): Promise<GlossaryEntry> {
    await this.owned(userId, connectionId);
    if ((await this.store.glossary.count(connectionId)) >= this.config.KNOWLEDGE_MAX_GLOSSARY) {
      throw tooMany('glossary terms', this.config.KNOWLEDGE_MAX_GLOSSARY, 'KNOWLEDGE_MAX_GLOSSARY');
    }
    await this.refuseTakenTerm(connectionId, input.term);
    const now = this.clock.iso();
    const row = { id: crypto.randomUUID(), connection_id: connectionId, ...glossaryColumns(input), created_at: now, updated_at: now };
    try {
      await this.store.glossary.insert(row);
    } catch (error) {
      // Two requests adding the same term at once: the unique key let one through.
      if (await this.store.glossary.findByTerm(connectionId, row.term_key)) throw termTaken(input.term);
      throw error;
    }
    return toGlossaryEntry(row);
  }

  async updateTerm(userId: string, connectionId: string, id: string, input: GlossaryInput): Promise<GlossaryEntry> {
    await this.owned(userId, connectionId);
    const current = await this.store.glossary.find(connectionId, id);
    if (!current) throw AppError.notFound('Glossary term');
    await this.refuseTakenTerm(connectionId, input.term, id);
    const changes = { ...glossaryColumns(input), updated_at: this.clock.iso() };
    if (!(await this.store.glossary.update(connectionId, id, changes))) throw AppError.notFound('Glossary term');
    return toGlossaryEntry({ ...current, ...changes });
  }

  async deleteTerm(userId: string, connectionId: string, id: string): Promise<void> {
    await this.owned(userId, connectionId);
    if (!(await this.store.glossary.delete(connectionId, id))) throw AppError.notFound('Glossary term');
  }

  async tables(userId: string, connectionId: string): Promise<TableNote[]> {
    await this.owned(userId, connectionId);
    return (await this.store.tables.list(connectionId)).map(toTableNote);
  }

  /** Creates or replaces the note of one table. */
  async putTable(userId: string, connectionId: string, input: TableNoteParsed): Promise<TableNote> {
    await this.owned(userId, connectionId);
    const existing = await this.store.tables.find(connectionId, input.schema ?? '', input.table);
    if (!existing && (await this.store.tables.count(connectionId)) >= this.config.KNOWLEDGE_MAX_TABLE_NOTES) {
      throw tooMany('table notes', this.config.KNOWLEDGE_MAX_TABLE_NOTES, 'KNOWLEDGE_MAX_TABLE_NOTES');
    }
    const row = { id: existing?.id ?? crypto.randomUUID(), connection_id: connectionId, ...tableNoteColumns(input), updated_at: this.clock.iso() };
    await this.store.tables.put(row);
    return toTableNote((await this.store.tables.find(connectionId, row.schema_name, row.table_name)) ?? row);
  }

  async deleteTable(userId: string, connectionId: string, id: string): Promise<void> {
    await this.owned(userId, connectionId);
    if (!(await this.store.tables.delete(connectionId, id))) throw AppError.notFound('Table note');
  }

  private async refuseTakenTerm(connectionId: string, term: string, exceptId?: string): Promise<void> {
    const taken = await this.store.glossary.findByTerm(connectionId, termKey(term));
    if (taken && taken.id !== exceptId) throw termTaken(term);
  }
}

function termTaken(term: string): AppError {
  return new AppError('CONFLICT', `The glossary already defines "${term}". Edit that term instead of adding it again.`);
}

export function glossaryColumns(input: GlossaryInput) {
  return {
    term: input.term,
    term_key: termKey(input.term),
    definition: input.definition,
    sql: input.sql ?? null,
    unit: input.unit ?? null,
    caveats: JSON.stringify(input.caveats),
  };
}

export function tableNoteColumns(input: TableNoteParsed) {
  return {
    schema_name: input.schema ?? '',
    table_name: input.table,
    description: input.description ?? null,
    column_notes: JSON.stringify(input.columns),
    data_quality: JSON.stringify(input.data_quality),
  };
}
