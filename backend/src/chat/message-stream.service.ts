import { Inject, Injectable, Logger } from '@nestjs/common';
import type { ConfirmRequest } from '@aigis/contracts';
import type { Request, Response } from 'express';
import { AgentFacade, type TurnInput } from '../agent/agent.facade.js';
import { AppError, isAppError } from '../common/app-error.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { UserLimits } from '../limits/user-limits.service.js';
import { isAbortError, upstreamError } from '../llm/upstream-error.js';
import { ModelRegistry } from '../llm/model-registry.js';
import type { ThreadsTable } from '../storage/schema.js';
import { isStorageOutage, storageUnavailable } from '../storage/storage-outage.js';
import { SseSink } from './sse-sink.js';
import { StallWatchdog } from './stall-watchdog.js';
import { ThinkFilter } from './think-filter.js';
import { ThreadsService } from './threads.service.js';
import { TurnLeases } from './turn-leases.js';

const SQL_PREFIX = /^sql:\s*/i;

/** A turn as the chat starts it: the model of a question is the thread's (resolved when it starts). */
type ChatTurn = { question: string } | Exclude<TurnInput, { question: string }>;

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
    private readonly agent: AgentFacade,
    private readonly registry: ModelRegistry,
    private readonly leases: TurnLeases,
    private readonly limits: UserLimits,
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
      await this.agent.supersede(row.id);
      await this.runTurn(row, SQL_PREFIX.test(content) ? { sql: content.replace(SQL_PREFIX, '').trim(), content } : { question: content }, sink, signal);
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
      const resume = await this.agent.decide(row.id, request);
      await this.respond(row, res, (sink, signal) => this.runTurn(row, resume, sink, signal));
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

  /**
   * One turn, streamed: the answer's text through the think filter, tool events as they come, then `end` (or
   * `confirm_required` first when the turn paused for review). A run that stalls or overruns is stopped
   * (StallWatchdog); whatever completed stays in the thread.
   */
  private async runTurn(row: ThreadsTable, turn: ChatTurn, sink: SseSink, signal: AbortSignal): Promise<void> {
    // Only a question needs a model: a `SQL:` message does not, nor does a resumed turn that is one (`direct`).
    const needsModel = 'question' in turn || ('resume' in turn && !turn.direct);
    const model = needsModel ? this.registry.modelForThread(row.model_name) : null;
    // Fails fast, naming the alternatives, before anything is written to the thread.
    if (model) this.registry.ensureUsable(model.name);
    const input: TurnInput = 'question' in turn ? { question: turn.question, model: model!.name } : turn;

    let full = '';
    let partial = '';
    const filter = new ThinkFilter();
    const say = (text: string) => {
      if (!text) return;
      full += text;
      partial += text;
      sink.send({ type: 'chunk', data: { content: text } });
    };
    // A `SQL:` message's statement is bounded by STATEMENT_TIMEOUT_MS alone, as it always was; a model's turn is watched.
    const watchdog = 'sql' in input ? null : new StallWatchdog(signal, { stallMs: this.config.LLM_STALL_TIMEOUT_MS, maxTurnMs: this.config.LLM_MAX_TURN_MS });
    const budget = 'sql' in input ? undefined : this.limits.turn();
    let outcome;
    try {
      outcome = await this.agent.runTurn(row.id, input, {
        signal: watchdog?.signal ?? signal,
        budget,
        onText: (text) => say(filter.push(text)),
        onToolEvent: (event) => sink.send(event),
        onAnswerStep: () => {
          say(filter.flush());
          partial = '';
        },
        onActivity: () => watchdog?.touch(),
      });
    } catch (error) {
      await this.agent.settle(row.id, partial, signal.aborted || !!watchdog?.overran);
      if (watchdog?.overran && !signal.aborted) {
        throw new AppError(
          'UPSTREAM_FAILED',
          `The answer took longer than ${Math.round(this.config.LLM_MAX_TURN_MS / 1000)} s, the most one answer may take (LLM_MAX_TURN_MS), so it was stopped; what had arrived is kept. Ask again, or pick another model if ${model?.name ?? 'the model'} keeps answering without end.`,
        );
      }
      if (watchdog?.stalled && !signal.aborted) {
        throw new AppError('UPSTREAM_FAILED', `${model?.name ?? 'The model'} stopped responding for ${Math.round(this.config.LLM_STALL_TIMEOUT_MS / 1000)} s, so the answer was stopped. Try again.`);
      }
      throw error;
    } finally {
      watchdog?.dispose();
    }
    // A turn stopped by its tool or model call budget ends on the reason; the thread stays consistent (every call answered).
    if (budget?.stopped) {
      sink.send({ type: 'error', data: { error: budget.stopped.message, code: budget.stopped.code } });
      return;
    }
    if (outcome.paused) sink.send({ type: 'confirm_required', data: outcome.paused });
    // A `SQL:` message reports no usage (no model was asked).
    sink.send({ type: 'end', data: { full_response: full, ...(budget ? { usage: outcome.usage } : {}) } });
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
