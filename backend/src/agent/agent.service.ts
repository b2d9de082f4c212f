import { Inject, Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { BaseMessage } from '@langchain/core/messages';
import type { Dialect } from '@aigis/contracts';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { ConnectionsService } from '../connections/connections.service.js';
import { SchemaService } from '../connections/schema.service.js';
import { TURN_BUDGET_KEY, type TurnBudget } from '../limits/turn-budget.js';
import { ModelRegistry } from '../llm/model-registry.js';
import { ReadOnlyExecutor } from '../query/read-only-executor.js';
import { createCheckpointer, type Checkpointer } from './checkpointer.js';
import { buildAgentGraph, type AgentGraph } from './graph.js';
import type { ModelResolver } from './model-resolver.js';
import type { AigisStateType, AigisStateUpdate } from './state.js';
import { ReviewService } from './review/review.service.js';
import { askAnalystTool } from './tools/ask-analyst.tool.js';
import { askDatabaseTool } from './tools/ask-database.tool.js';
import { describeTableTool } from './tools/describe-table.tool.js';

/** Tool rounds per message before the run is stopped (a model stuck calling tools). */
export const RECURSION_LIMIT = 24;

/** Owns the compiled graph and its checkpointer; threads are addressed by our thread id. */
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
  ) {}

  async onModuleInit(): Promise<void> {
    this.checkpointer = await createCheckpointer(this.config);
    const models: ModelResolver = {
      chatModel: (name, options) => this.registry.chatModel(name, options),
      supportsTools: (name) => this.registry.resolve(name).capabilities.tool_calling,
    };
    const tools = [
      askDatabaseTool({ models, executor: this.executor, schemas: this.schemas, connections: this.connections, review: this.review }),
      askAnalystTool({ models }),
      describeTableTool({ schemas: this.schemas }),
    ];
    this.compiled = buildAgentGraph(
      {
        models,
        tools,
        contextBudgetTokens: this.config.CONTEXT_BUDGET_TOKENS,
        dialectOf: (state) => this.dialectOf(state),
        noModelMessage: () => this.registry.noModelMessage(),
        executor: this.executor,
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
   * A run's checkpoint is written once, when the run ends (completed, failed or aborted: LangGraph's
   * "exit" durability), not after every step: a turn is one unit for the user, and per-step writes
   * cost more CPU than the rest of the step.
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

  private async dialectOf(state: AigisStateType): Promise<Dialect | null> {
    if (!state.connection) return null;
    try {
      return (await this.connections.get(state.connection.user_id, state.connection.connection_id)).dialect;
    } catch {
      return null;
    }
  }
}
