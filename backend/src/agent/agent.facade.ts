import crypto from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { Command } from '@langchain/langgraph';
import type { ConfirmRequest, ReviewProposal, ThreadMessage, ThreadState, TurnUsage } from '@aigis/contracts';
import type { TurnBudget } from '../limits/turn-budget.js';
import { AgentService } from './agent.service.js';
import { type AnswerExample, findAnswerExample } from './answer-example.js';
import { AnswerRelay } from './answer-relay.js';
import { answerEveryToolCall } from './context-window.js';
import type { ToolStreamEvent } from './events.js';
import type { ReviewAnswer } from './review/review-answer.js';
import { ThreadReviews } from './review/thread-reviews.js';
import type { AigisStateUpdate } from './state.js';
import { lastResultRows } from './stored-results.js';
import { toThreadMessages } from './thread-messages.js';
import { directSqlTurn } from './tool-calls.js';
import { UsageMeter } from './usage-meter.js';

/** How a turn starts: a question for the thread's model, a `SQL:` message's statement, or a review decision. */
export type TurnInput = { question: string; model: string } | { sql: string; content: string } | ResumeInput;

/** A paused turn resumed with the user's decision; `direct` when it is a `SQL:` message's (no model needed). */
export interface ResumeInput {
  resume: ReviewAnswer;
  direct: boolean;
}

/** What a running turn reports, as it happens. */
export interface TurnHooks {
  signal: AbortSignal;
  /** The turn's tool and model call budget (limits); none for a `SQL:` message. */
  budget?: TurnBudget;
  /** Text of the answer (the assistant's own model calls only), as it streams. */
  onText(text: string): void;
  /** A tool call or result. */
  onToolEvent(event: ToolStreamEvent): void;
  /** An assistant step ended (its text is complete). */
  onAnswerStep(): void;
  /** Anything happened (a token, an event, a finished step): the turn is alive. */
  onActivity(): void;
}

/** The thread settings the chat writes into the agent's state. */
export type ThreadSettings = Pick<AigisStateUpdate, 'model_name' | 'db_schema' | 'markdown_mode' | 'connection' | 'sql_result'>;

/**
 * What the chat module uses of the agent: run a turn (a question, a `SQL:` message through the ask_database tool,
 * or a resumed review), read a thread as the web app shows it, and keep its settings and reviews.
 */
@Injectable()
export class AgentFacade {
  private readonly logger = new Logger(AgentFacade.name);

  constructor(
    private readonly agent: AgentService,
    private readonly reviews: ThreadReviews,
  ) {}

  /**
   * Runs one turn to its end or its pause. The answer's tokens go straight from the model callback to `onText`
   * (LangGraph's `messages` stream would queue every token through the graph's stream first); `custom` carries
   * the tool events and `updates` marks each finished step. Returns the proposal the turn paused on, if any, and the
   * turn's model calls and tokens.
   */
  async runTurn(threadId: string, input: TurnInput, hooks: TurnHooks): Promise<{ paused: ReviewProposal | null; usage: TurnUsage }> {
    const config = this.agent.runConfig(threadId, hooks.signal, hooks.budget);
    const relay = new AnswerRelay((text) => {
      hooks.onActivity();
      hooks.onText(text);
    });
    let graphInput: unknown;
    if ('resume' in input) graphInput = new Command<ReviewAnswer>({ resume: input.resume });
    else if ('question' in input) graphInput = { messages: [new HumanMessage(input.question)], model_name: input.model };
    else {
      // A `SQL:` message is our own ask_database call: the tools node runs it like any other, and the turn ends there.
      await this.agent.graph.updateState(config, { messages: directSqlTurn(input.content, input.sql, directCallId()) }, 'assistant');
      graphInput = null;
    }
    const meter = new UsageMeter();
    let paused: ReviewProposal | null = null;
    const stream = await this.agent.graph.stream(graphInput as Parameters<AgentService['graph']['stream']>[0], { ...config, callbacks: [relay, meter], streamMode: ['custom', 'updates'] });
    for await (const [mode, payload] of stream as AsyncIterable<[string, unknown]>) {
      hooks.onActivity();
      if (mode === 'custom') {
        hooks.onToolEvent(payload as ToolStreamEvent);
        continue;
      }
      // The review node paused the turn (interrupt()): the proposal goes to the user, the turn ends here.
      const update = payload as { __interrupt__?: { value: ReviewProposal }[]; assistant?: unknown };
      if (update.__interrupt__?.length) paused = update.__interrupt__[0]!.value;
      if (update.assistant !== undefined) hooks.onAnswerStep();
    }
    return { paused, usage: meter.usage(hooks.budget?.usage.modelCalls ?? 0) };
  }

  /**
   * After an aborted or failed run: keep the text that had streamed (marked stopped), answer tool
   * calls that never finished, and leave no step pending, so the next message starts cleanly.
   */
  async settle(threadId: string, partial: string, stopped: boolean): Promise<void> {
    try {
      const state = await this.agent.graph.getState({ configurable: { thread_id: threadId } });
      const messages = (state.values as { messages?: AIMessage[] }).messages ?? [];
      const repaired = answerEveryToolCall(messages);
      const missing = repaired.slice(messages.length);
      const extra = partial.trim() ? [new AIMessage({ content: partial, response_metadata: { stopped } })] : [];
      if (missing.length || extra.length || state.next.length) await this.agent.update(threadId, { messages: [...missing, ...extra] });
    } catch (error) {
      this.logger.error(`Could not settle thread ${threadId} after an interrupted run: ${(error as Error).message}`);
    }
  }

  /** The conversation as the web app shows it, with the query waiting for review if any. */
  async conversation(threadId: string): Promise<{ messages: ThreadMessage[]; pending_review: ReviewProposal | null }> {
    return { messages: toThreadMessages(await this.agent.messages(threadId)), pending_review: await this.reviews.pendingProposal(threadId) };
  }

  /** The SQL and question of one answer's query result ("Save as example"); null when the id names none. */
  async answerExample(threadId: string, messageId: string): Promise<AnswerExample | null> {
    return findAnswerExample(await this.agent.messages(threadId), messageId);
  }

  /** The thread's whole state (GET /api/chat/:id/state); the last result with its rows. */
  async threadState(threadId: string): Promise<ThreadState> {
    const state = await this.agent.state(threadId);
    return {
      messages: toThreadMessages(state.messages),
      model_name: state.model_name,
      db_schema: state.db_schema,
      connection: state.connection,
      sql_result: state.sql_result && { ...state.sql_result, rows: lastResultRows(state.messages, state.sql_result) },
      pending_review: await this.reviews.pendingProposal(threadId),
    };
  }

  /** Writes thread settings (model, connection and schema) without ending a turn paused for review. */
  saveSettings(threadId: string, settings: ThreadSettings): Promise<void> {
    return this.agent.updateSettings(threadId, settings);
  }

  deleteThread(threadId: string): Promise<void> {
    return this.agent.deleteThread(threadId);
  }

  /** Records the user's decision on the waiting query (errors before anything streams); resume the turn with it. */
  async decide(threadId: string, request: ConfirmRequest): Promise<ResumeInput> {
    const { answer, pending } = await this.reviews.decide(threadId, request);
    return { resume: answer, direct: pending.proposal.direct };
  }

  /** A new message replaces a waiting proposal: it is refused and its paused turn closed. */
  supersede(threadId: string): Promise<void> {
    return this.reviews.supersede(threadId);
  }
}

function directCallId(): string {
  return `sql_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
}
