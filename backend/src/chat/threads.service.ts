import crypto from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CreateThreadInput, ReviewMode, ThreadConnectionResponse, ThreadDetail, ThreadModelResponse, ThreadState, ThreadSummary, UpdateThreadInput } from '@aigis/contracts';
import { AgentFacade } from '../agent/agent.facade.js';
import { AppError } from '../common/app-error.js';
import { Clock } from '../common/clock.js';
import { ConnectionsService } from '../connections/connections.service.js';
import { SchemaService } from '../connections/schema.service.js';
import { ModelRegistry } from '../llm/model-registry.js';
import { ThreadsRepository } from '../storage/repositories/threads.repository.js';
import type { ThreadsTable } from '../storage/schema.js';
import { DEFAULT_TITLE } from './default-title.js';

export function toSummary(row: ThreadsTable): ThreadSummary {
  return {
    thread_id: row.id,
    title: row.title,
    model: row.model_name,
    connection_id: row.connection_id,
    review: (row.review as ReviewMode | null) ?? null,
    knowledge_examples: row.knowledge_examples !== 0,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Threads: the row in app storage (owner, title, chosen model and connection) and the conversation in
 * the agent's checkpoint. The row is the source of truth for the model and connection; the graph
 * state mirrors them so every node and tool can read them.
 */
@Injectable()
export class ThreadsService {
  constructor(
    private readonly threads: ThreadsRepository,
    private readonly agent: AgentFacade,
    private readonly registry: ModelRegistry,
    private readonly connections: ConnectionsService,
    private readonly schemas: SchemaService,
    private readonly clock: Clock,
  ) {}

  async create(userId: string, input: CreateThreadInput): Promise<ThreadSummary> {
    const model = input.model ? this.registry.resolve(input.model).name : null;
    if (input.connection_id) await this.connections.get(userId, input.connection_id);
    const now = this.clock.iso();
    const row: ThreadsTable = {
      id: crypto.randomUUID(),
      user_id: userId,
      title: input.title ?? DEFAULT_TITLE,
      model_name: model,
      connection_id: null,
      review: input.review ?? null,
      knowledge_examples: input.knowledge_examples === false ? 0 : 1,
      created_at: now,
      updated_at: now,
    };
    await this.threads.insert(row);
    if (model) await this.agent.saveSettings(row.id, { model_name: model });
    if (input.connection_id) {
      await this.setConnection(userId, row.id, input.connection_id);
      row.connection_id = input.connection_id;
    }
    return toSummary(row);
  }

  async list(userId: string): Promise<ThreadSummary[]> {
    return (await this.threads.listByUser(userId)).map(toSummary);
  }

  async row(userId: string, threadId: string): Promise<ThreadsTable> {
    const row = await this.threads.findOwned(userId, threadId);
    if (!row) throw AppError.notFound('Thread');
    return row;
  }

  async detail(userId: string, threadId: string): Promise<ThreadDetail> {
    const row = await this.row(userId, threadId);
    return { ...toSummary(row), ...(await this.agent.conversation(threadId)) };
  }

  /** Renames, sets the thread's review mode (null: follow the connection) and/or its use of knowledge examples. */
  async update(userId: string, threadId: string, input: UpdateThreadInput): Promise<ThreadSummary> {
    const row = await this.row(userId, threadId);
    const patch = {
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.review !== undefined ? { review: input.review } : {}),
      ...(input.knowledge_examples !== undefined ? { knowledge_examples: input.knowledge_examples ? 1 : 0 } : {}),
      updated_at: this.clock.iso(),
    };
    await this.threads.update(userId, threadId, patch);
    return toSummary({ ...row, ...patch });
  }

  async delete(userId: string, threadId: string): Promise<void> {
    await this.row(userId, threadId);
    await this.agent.deleteThread(threadId);
    await this.threads.delete(userId, threadId);
  }

  async model(userId: string, threadId: string): Promise<ThreadModelResponse> {
    const row = await this.row(userId, threadId);
    const models = Object.fromEntries(this.registry.list().map((m) => [m.name, m.available]));
    const fallback = this.registry.defaultModel()?.name ?? null;
    return {
      thread_id: threadId,
      model: row.model_name ?? fallback,
      source: row.model_name ? 'thread' : fallback ? 'default' : null,
      models,
    };
  }

  /** Switches the thread's model (between any two messages); an alias resolves to the canonical name. */
  async setModel(userId: string, threadId: string, name: string): Promise<ThreadModelResponse> {
    await this.row(userId, threadId);
    const model = this.registry.resolve(name);
    if (!model.available) {
      const available = this.registry.list().filter((m) => m.available).map((m) => m.name);
      throw new AppError(
        'MODEL_UNAVAILABLE',
        `Model "${model.name}" is not available${model.reason ? `: ${model.reason}` : ''}. ${available.length ? `Available: ${available.join(', ')}.` : this.registry.noModelMessage()}`,
        { model: model.name, available },
      );
    }
    await this.threads.update(userId, threadId, { model_name: model.name, updated_at: this.clock.iso() });
    await this.agent.saveSettings(threadId, { model_name: model.name });
    return this.model(userId, threadId);
  }

  /** Introspects (cached) and puts the compact schema into the thread's state; the last result no longer applies. */
  async setConnection(userId: string, threadId: string, connectionId: string): Promise<ThreadConnectionResponse> {
    await this.row(userId, threadId);
    const schema = await this.schemas.get(userId, connectionId);
    await this.agent.saveSettings(threadId, {
      db_schema: schema.markdown,
      markdown_mode: schema.markdown_mode,
      connection: { user_id: userId, connection_id: connectionId },
      sql_result: null,
    });
    await this.threads.update(userId, threadId, { connection_id: connectionId, updated_at: this.clock.iso() });
    return { thread_id: threadId, connection_id: connectionId, tables: schema.tables.length, markdown_mode: schema.markdown_mode };
  }

  async state(userId: string, threadId: string): Promise<ThreadState> {
    await this.row(userId, threadId);
    return this.agent.threadState(threadId);
  }

  /** After a message: newest first in the list, and a title from the first question. */
  async touch(row: ThreadsTable, firstContent: string): Promise<void> {
    const title = row.title === DEFAULT_TITLE ? summariseTitle(firstContent) : row.title;
    await this.threads.update(row.user_id, row.id, { title, updated_at: this.clock.iso() });
  }
}

function summariseTitle(content: string): string {
  const text = content.replace(/^sql:\s*/i, 'SQL: ').replace(/\s+/g, ' ').trim();
  return text.length > 60 ? `${text.slice(0, 57).trimEnd()}…` : text;
}
