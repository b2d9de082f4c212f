import crypto from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { Command } from '@langchain/langgraph';
import type { ConfirmRequest, ReviewProposal, ToolResultContent } from '@aigis/contracts';
import type { Request, Response } from 'express';
import { AgentService } from '../agent/agent.service.js';
import { answerEveryToolCall } from '../agent/context-window.js';
import type { ReviewAnswer } from '../agent/review/review-answer.js';
import { ReviewService } from '../agent/review/review.service.js';
import type { ToolStreamEvent } from '../agent/events.js';
import { describeForModel, sqlResultContent } from '../agent/tools/ask-database.tool.js';
import { AppError, isAppError } from '../common/app-error.js';
import { storageUnavailable } from '../common/exception.filter.js';
import { isStorageOutage } from '../storage/storage-outage.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { UserLimits } from '../limits/user-limits.service.js';
import { isAbortError, upstreamError } from '../llm/upstream-error.js';
import { ModelRegistry } from '../llm/model-registry.js';
import { ReadOnlyExecutor } from '../query/read-only-executor.js';
import type { ThreadsTable } from '../storage/schema.js';
import { AnswerRelay } from './answer-relay.js';
import { ReviewTurnsService } from './review-turns.service.js';
import { SseSink } from './sse-sink.js';
import { ThinkFilter } from './think-filter.js';
import { ThreadsService } from './threads.service.js';
import { TurnLeases } from './turn-leases.js';

const SQL_PREFIX = /^sql:\s*/i;

/** A turn starts from the user's message, or resumes a paused one with the user's review decision. */
type TurnInput = { content: string } | { resume: ReviewAnswer; direct: boolean };

/**
 * POST /api/chat/:id/message: runs one turn and streams it (SPEC "Stream events"). Closing the
 * request aborts the graph, the upstream model request and the running query; whatever completed
 * stays in the thread, and the thread is always left ready for the next message.
 */
@Injectable()
export class MessageStreamService {
  private readonly logger = new Logger(MessageStreamService.name);

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly threads: ThreadsService,
    private readonly agent: AgentService,
    private readonly registry: ModelRegistry,
    private readonly executor: ReadOnlyExecutor,
    private readonly leases: TurnLeases,
    private readonly limits: UserLimits,
    private readonly review: ReviewService,
    private readonly reviewTurns: ReviewTurnsService,
  ) {}

  async stream(userId: string, threadId: string, content: string, req: Request, res: Response): Promise<void> {
    const row = await this.threads.row(userId, threadId);
    await this.exclusively(userId, row, () => this.streamTurn(row, content, res));
  }

  /**
   * Both before any header is sent: past the per-user stream limit this answers 429 RATE_LIMITED,
   * on a busy thread 409 THREAD_BUSY, as plain JSON.
   */
  private async exclusively(userId: string, row: ThreadsTable, work: () => Promise<void>): Promise<void> {
    const release = this.limits.stream(userId);
    try {
      const lease = await this.leases.acquire(row.id);
      try {
        await work();
      } finally {
        await lease.release();
      }
    } finally {
      release();
    }
  }

  private streamTurn(row: ThreadsTable, content: string, res: Response): Promise<void> {
    return this.respond(row, res, async (sink, signal) => {
      await this.threads.touch(row, content);
      // A proposal still waiting is refused first: the new message replaces it.
      await this.reviewTurns.supersede(row);
      if (SQL_PREFIX.test(content)) await this.runSql(row, content, sink, signal);
      else await this.runAgent(row, { content }, sink, signal);
    });
  }

  /**
   * POST /api/chat/:id/confirm: records the decision on the pending query, then resumes the paused turn
   * (LangGraph `Command({ resume })`) and streams the rest of it like a message. Decision errors (nothing
   * pending, a refused edit, a busy thread) are answered before the stream starts.
   */
  async confirm(userId: string, threadId: string, request: ConfirmRequest, _req: Request, res: Response): Promise<void> {
    const row = await this.threads.row(userId, threadId);
    await this.exclusively(userId, row, async () => {
      const { answer, pending } = await this.reviewTurns.decide(row, request);
      await this.respond(row, res, (sink, signal) => this.runAgent(row, { resume: answer, direct: pending.proposal.direct }, sink, signal));
    });
  }

  /** One streamed answer: the SSE response, an abort when the client goes away, errors as `error` events. */
  private async respond(row: ThreadsTable, res: Response, work: (sink: SseSink, signal: AbortSignal) => Promise<void>): Promise<void> {
    const controller = new AbortController();
    let finished = false;
    // Registered before the sink, whose own close handler ends the response.
    res.once('close', () => {
      if (!finished) controller.abort(new Error('client disconnected'));
    });
    const sink = new SseSink(res, this.config.SSE_PING_MS);
    try {
      await work(sink, controller.signal);
    } catch (error) {
      if (!controller.signal.aborted) {
        const appError = this.toStreamError(error, row);
        sink.send({ type: 'error', data: { error: appError.message, code: appError.code } });
      }
    } finally {
      finished = true;
      sink.close();
    }
  }

  private async runAgent(row: ThreadsTable, input: TurnInput, sink: SseSink, signal: AbortSignal): Promise<void> {
    // A resumed `SQL:` message needs no model (its turn ends after the query).
    const needsModel = !('resume' in input && input.direct);
    const model = needsModel ? this.registry.modelForThread(row.model_name) : null;
    // Fails fast, naming the alternatives, before anything is written to the thread.
    if (model) this.registry.ensureUsable(model.name);

    let full = '';
    let partial = '';
    const filter = new ThinkFilter();
    const say = (text: string) => {
      if (!text) return;
      full += text;
      partial += text;
      sink.send({ type: 'chunk', data: { content: text } });
    };
    // LLM_TIMEOUT_MS bounds the wait for an upstream's headers; a stream that stalls after them is
    // caught here: no token or graph event for LLM_STALL_TIMEOUT_MS stops the run. Activity only
    // stamps a time (tokens are frequent); the timer re-arms itself for what is left when it fires.
    // A model that never stops streaming is never idle: LLM_MAX_TURN_MS ends the turn whatever happens.
    const run = new AbortController();
    const stopRun = () => run.abort(signal.reason);
    signal.addEventListener('abort', stopRun, { once: true });
    const stallMs = this.config.LLM_STALL_TIMEOUT_MS;
    let stalled = false;
    let lastActivity = performance.now();
    let watchdog: NodeJS.Timeout | undefined;
    const check = () => {
      const idle = performance.now() - lastActivity;
      if (idle < stallMs) {
        watchdog = setTimeout(check, stallMs - idle);
        return;
      }
      stalled = true;
      run.abort(new Error('stalled'));
    };
    watchdog = setTimeout(check, stallMs);
    const maxTurnMs = this.config.LLM_MAX_TURN_MS;
    let overran = false;
    const turnTimer = setTimeout(() => {
      overran = true;
      run.abort(new Error('turn time limit'));
    }, maxTurnMs);
    const budget = this.limits.turn();
    // The answer's tokens go straight from the model callback to the client (LangGraph's `messages`
    // stream would queue every token through the graph's stream first); `custom` carries the tool
    // events and `updates` marks each finished step.
    const relay = new AnswerRelay((text) => {
      lastActivity = performance.now();
      say(filter.push(text));
    });
    let paused: ReviewProposal | null = null;
    try {
      const graphInput = 'resume' in input ? new Command<ReviewAnswer>({ resume: input.resume }) : { messages: [new HumanMessage(input.content)], model_name: model!.name };
      const stream = await this.agent.graph.stream(graphInput as Parameters<AgentService['graph']['stream']>[0], {
        ...this.agent.runConfig(row.id, run.signal, budget),
        callbacks: [relay],
        streamMode: ['custom', 'updates'],
      });
      for await (const [mode, payload] of stream as AsyncIterable<[string, unknown]>) {
        lastActivity = performance.now();
        // The review node paused the turn (interrupt()): the proposal goes to the user, the turn ends here.
        const interrupts = mode === 'updates' ? (payload as { __interrupt__?: { value: ReviewProposal }[] }).__interrupt__ : undefined;
        if (interrupts?.length) paused = interrupts[0]!.value;
        if (mode === 'custom') {
          sink.send(payload as ToolStreamEvent);
        } else if (mode === 'updates' && (payload as Record<string, unknown>).assistant !== undefined) {
          say(filter.flush());
          partial = '';
        }
      }
    } catch (error) {
      await this.settle(row.id, partial, signal.aborted || overran);
      if (overran && !signal.aborted) {
        throw new AppError(
          'UPSTREAM_FAILED',
          `The answer took longer than ${Math.round(maxTurnMs / 1000)} s, the most one answer may take (LLM_MAX_TURN_MS), so it was stopped; what had arrived is kept. Ask again, or pick another model if ${model?.name ?? 'the model'} keeps answering without end.`,
        );
      }
      if (stalled && !signal.aborted) {
        throw new AppError('UPSTREAM_FAILED', `${model?.name ?? 'The model'} stopped responding for ${Math.round(stallMs / 1000)} s, so the answer was stopped. Try again.`);
      }
      throw error;
    } finally {
      clearTimeout(watchdog);
      clearTimeout(turnTimer);
      signal.removeEventListener('abort', stopRun);
    }
    // A turn stopped by its tool or model call budget ends on the reason; the thread stays consistent (every call answered).
    if (budget.stopped) {
      sink.send({ type: 'error', data: { error: budget.stopped.message, code: budget.stopped.code } });
      return;
    }
    if (paused) sink.send({ type: 'confirm_required', data: paused });
    sink.send({ type: 'end', data: { full_response: full } });
  }

  /** `SQL: …` runs the statement directly through the read-only executor, without a model. */
  private async runSql(row: ThreadsTable, content: string, sink: SseSink, signal: AbortSignal): Promise<void> {
    const sql = content.replace(SQL_PREFIX, '').trim();
    const id = `sql_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
    sink.send({ type: 'tool_call', data: { id, name: 'ask_database', args: { sql } } });
    let result: ToolResultContent;
    let forModel: string;
    let sqlResult = null;
    if (!row.connection_id) {
      result = { type: 'error', code: 'NO_CONNECTION', message: 'Choose a connection for this conversation first, then send the SQL again.', sql };
      forModel = `Error (NO_CONNECTION): ${result.message}`;
    } else {
      try {
        // Review before run applies to `SQL:` too: a query to review pauses here, in the graph, like a tool call.
        const pause = await this.review.assess({ userId: row.user_id, connectionId: row.connection_id, threadId: row.id, sql, toolCallId: id, toolName: 'ask_database', direct: true, signal });
        if (pause) {
          await this.reviewTurns.pauseDirect(row, content, id, sql, pause, signal);
          sink.send({ type: 'confirm_required', data: pause.proposal });
          sink.send({ type: 'end', data: { full_response: '' } });
          return;
        }
        const answer = await this.executor.run({ userId: row.user_id, connectionId: row.connection_id, sql, threadId: row.id, signal });
        result = sqlResultContent(sql, answer);
        forModel = describeForModel(sql, answer);
        sqlResult = { sql, columns: answer.columns, rows: answer.rows, row_count: answer.row_count, truncated: answer.truncated };
      } catch (error) {
        if (!isAppError(error)) throw error;
        result = { type: 'error', code: error.code, message: error.message, sql };
        forModel = `Error (${error.code}): ${error.message}`;
      }
    }
    sink.send({ type: 'tool_result', data: { id, name: 'ask_database', content: result } });
    // Saved like an agent turn, so the thread shows it after a reload and the model sees it next time.
    await this.agent.update(row.id, {
      messages: [
        new HumanMessage(content),
        new AIMessage({ content: '', tool_calls: [{ id, name: 'ask_database', args: { sql }, type: 'tool_call' }] }),
        new ToolMessage({ tool_call_id: id, name: 'ask_database', content: forModel, artifact: result, status: result.type === 'error' ? 'error' : 'success' }),
      ],
      ...(sqlResult ? { sql_result: sqlResult } : {}),
    });
    sink.send({ type: 'end', data: { full_response: '' } });
  }

  /**
   * After an aborted or failed run: keep the text that had streamed (marked stopped), answer tool
   * calls that never finished, and leave no step pending, so the next message starts cleanly.
   */
  private async settle(threadId: string, partial: string, stopped: boolean): Promise<void> {
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

  private toStreamError(error: unknown, row: ThreadsTable): AppError {
    if (isAppError(error)) return error;
    const name = (error as Error)?.name;
    if (name === 'GraphRecursionError') {
      return new AppError('UPSTREAM_FAILED', 'The model kept calling tools without finishing its answer. Rephrase the question or pick another model.');
    }
    if (isAbortError(error)) return new AppError('QUERY_CANCELLED', 'The answer was stopped.');
    // Before the upstream test below, whose "terminated" would also match a lost storage connection.
    if (isStorageOutage(error)) return storageUnavailable();
    const upstream = (error as { status?: number; response?: unknown; lc_error_code?: string })?.status !== undefined || /fetch|connect|timed? ?out|terminated/i.test((error as Error)?.message ?? '');
    if (upstream) return upstreamError(error, row.model_name ?? this.registry.defaultModel()?.name ?? 'the model', this.config.LLM_TIMEOUT_MS);
    this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    return new AppError('INTERNAL', 'Something went wrong while answering. The error was logged; try again.');
  }
}
