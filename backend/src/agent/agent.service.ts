import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { BaseMessage } from '@langchain/core/messages';
import type { Dialect, SchemaResponse } from '@aigis/contracts';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { ConnectionsService } from '../connections/connections.service.js';
import { SchemaService } from '../connections/schema.service.js';
import { TURN_BUDGET_KEY, type TurnBudget } from '../limits/turn-budget.js';
import { KnowledgeContext } from '../knowledge/knowledge-context.service.js';
import { LearningsService } from '../knowledge/learnings.service.js';
import { ModelRegistry } from '../llm/model-registry.js';
import { ReadOnlyExecutor } from '../query/read-only-executor.js';
import { ThreadsRepository } from '../storage/repositories/threads.repository.js';
import { createCheckpointer, type Checkpointer } from './checkpointer.js';
import { buildAgentGraph, type AgentGraph } from './graph.js';
import type { ModelResolver } from './model-resolver.js';
import type { AigisStateType, AigisStateUpdate } from './state.js';
import { ReviewService } from './review/review.service.js';
import { askAnalystTool } from './tools/ask-analyst.tool.js';
import { askDatabaseTool } from './tools/ask-database.tool.js';
import { describeTableTool } from './tools/describe-table.tool.js';
import { saveLearningTool } from './tools/save-learning.tool.js';

/** Tool rounds per message before the run is stopped (a model stuck calling tools). */
export const RECURSION_LIMIT = 24;

/** Owns the compiled graph and its checkpointer; threads are addressed by our thread id. Internal to AgentModule. */
@Injectable()
export class AgentService implements OnModuleInit, OnApplicationShutdown {
  private checkpointer!: Checkpointer;
  private compiled!: AgentGraph;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly registry: ModelRegistry,
    private readonly executor: ReadOnlyExecutor,
    private readonly schemas: SchemaService,
    private readonly connections: ConnectionsService,
    private readonly review: ReviewService,
    private readonly knowledge: KnowledgeContext,
    private readonly learnings: LearningsService,
    private readonly threads: ThreadsRepository,
  ) {}

  async onModuleInit(): Promise<void> {
    this.checkpointer = await createCheckpointer(this.config);
    const models: ModelResolver = {
      chatModel: (name, options) => this.registry.chatModel(name, options),
      supportsTools: (name) => this.registry.resolve(name).capabilities.tool_calling,
      contextWindow: (name) => this.registry.contextWindow(name),
    };
    const askDatabase = askDatabaseTool({ models, executor: this.executor, schemas: this.schemas, connections: this.connections,
      review: this.review,
      knowledge: {
        notes: (userId, connectionId) => this.knowledge.notes(userId, connectionId),
        examples: (userId, connectionId, question) => this.knowledge.examples(userId, connectionId, question),
        tableNotes: (connectionId) => this.knowledge.tableNotes(connectionId),
        // A thread turns examples off (measurement); a thread row that is gone reads as the default, on.
        examplesOn: async (userId, threadId) => (await this.threads.findOwned(userId, threadId))?.knowledge_examples !== 0,
      },
    });
    const tools = [
      askDatabase,
      askAnalystTool({ models }),
      describeTableTool({ schemas: this.schemas, tableNotes: (connectionId) => this.knowledge.tableNotes(connectionId) }),
      saveLearningTool({ record: (userId, connectionId, threadId, input) => this.learnings.record(userId, connectionId, threadId, input) }),
    ];
    this.compiled = buildAgentGraph(
      {
        models,
        tools,
        contextBudgetTokens: this.config.CONTEXT_BUDGET_TOKENS,
        dialectOf: (state) => this.dialectOf(state),
        schemaFor: (state, question, signal) => this.schemaFor(state, question, signal),
        knowledgeFor: (state) => (state.connection ? this.knowledge.notes(state.connection.user_id, state.connection.connection_id) : Promise.resolve(null)),
        noModelMessage: () => this.registry.noModelMessage(),
        executor: this.executor,
        direct: askDatabase,
      },
      this.checkpointer.saver,
      { turnStoreMaxBytes: this.config.TURN_STORE_MAX_BYTES },
    );
  }

  async onApplicationShutdown(): Promise<void> {
    await this.checkpointer?.close();
  }

  get graph(): AgentGraph {
    return this.compiled;
  }

  /**
   * The config of one run on a thread. Checkpoints are written after every step, with LangGraph's default "async"
   * durability (the next step does not wait for the write); ThreadCheckpointSaver deletes the superseded ones
   * when a turn starts.
   */
  runConfig(threadId: string, signal?: AbortSignal, budget?: TurnBudget) {
    return { configurable: { thread_id: threadId, ...(budget ? { [TURN_BUDGET_KEY]: budget } : {}) }, signal, recursionLimit: RECURSION_LIMIT };
  }

  async state(threadId: string): Promise<AigisStateType> {
    const snapshot = await this.compiled.getState({ configurable: { thread_id: threadId } });
    return {
      messages: [],
      model_name: null,
      db_schema: null,
      markdown_mode: null,
      schema_mode: null,
      connection: null,
      sql_result: null,
      pending_review: null,
      ...(snapshot.values as Partial<AigisStateType>),
    };
  }

  async messages(threadId: string): Promise<BaseMessage[]> {
    return (await this.state(threadId)).messages;
  }

  /**
   * Writes to a thread's state outside a run. As the assistant node, so the next step is decided
   * by the usual routing (a trailing tool or text message ends the turn): no run is left pending.
   */
  async update(threadId: string, values: AigisStateUpdate): Promise<void> {
    await this.compiled.updateState({ configurable: { thread_id: threadId } }, values, 'assistant');
  }

  /**
   * Thread settings (model, connection) written to the state without ending a paused turn: while a query waits
   * for review, the write goes in as the tools node, so the graph still waits in the review node and the
   * proposal can be decided afterwards (resuming runs the review node with the decision).
   */
  async updateSettings(threadId: string, values: AigisStateUpdate): Promise<void> {
    const snapshot = await this.compiled.getState({ configurable: { thread_id: threadId } });
    const paused = snapshot.next.includes('review');
    await this.compiled.updateState({ configurable: { thread_id: threadId } }, values, paused ? 'tools' : 'assistant');
  }

  async deleteThread(threadId: string): Promise<void> {
    await this.checkpointer.deleteThread(threadId);
  }

  /** The connection's schema for this question; null (the stored one is used) when it cannot be read now. */
  private async schemaFor(state: AigisStateType, question: string, signal?: AbortSignal): Promise<Pick<SchemaResponse, 'markdown' | 'markdown_mode'> | null> {
    if (!state.connection) return null;
    try {
      const notes = await this.knowledge.tableNotes(state.connection.connection_id);
      return await this.schemas.promptSchema(state.connection.user_id, state.connection.connection_id, question, { signal, notes });
    } catch {
      return null;
    }
  }

  private async dialectOf(state: AigisStateType): Promise<Dialect | null> {
    if (!state.connection) return null;
    try {
      return (await this.connections.get(state.connection.user_id, state.connection.connection_id)).dialect;
    } catch {
      return null;
    }
  }
}
