import type { LangGraphRunnableConfig } from '@langchain/langgraph';
import { AppError } from '../common/app-error.js';

export interface TurnLimits {
  /** Tool calls of one model message that run; the rest are answered with a tool error. */
  toolCallsPerMessage: number;
  /** Tool calls that run in one turn; past it the remaining calls are refused and the turn stops. */
  toolCallsPerTurn: number;
  /** Model calls in one turn: the assistant's and those made inside tools (SQL and chart writing). */
  modelCallsPerTurn: number;
}

/** Where the turn's budget travels in the run config, so every node and tool of the run shares it. */
export const TURN_BUDGET_KEY = 'aigis_turn_budget';

export function turnBudgetOf(config: Pick<LangGraphRunnableConfig, 'configurable'> | undefined): TurnBudget | undefined {
  const budget = config?.configurable?.[TURN_BUDGET_KEY];
  return budget instanceof TurnBudget ? budget : undefined;
}

/** A tool call that may not run, and what the model is told about it. */
export interface RefusedToolCall<T> {
  call: T;
  message: string;
}

/**
 * What one chat turn may still spend. A model steered by text in the user's database could otherwise
 * ask for 60 queries in one message or loop on tools: the excess is refused where the model sees it
 * (a tool error), and a turn that has spent its budget is stopped with the reason in `stopped`.
 */
export class TurnBudget {
  private toolCalls = 0;
  private modelCalls = 0;
  /** Why a limit stopped the turn (sent as the stream's `error`), or null. */
  stopped: AppError | null = null;

  constructor(readonly limits: TurnLimits) {}

  get usage(): { toolCalls: number; modelCalls: number } {
    return { toolCalls: this.toolCalls, modelCalls: this.modelCalls };
  }

  /** Counts one model call; throws (and stops the turn) once the turn has made as many as it may. */
  modelCall(): void {
    if (this.modelCalls >= this.limits.modelCallsPerTurn) throw this.stopForModelCalls();
    this.modelCalls++;
  }

  /** Whether the assistant may be called again; if not, the turn is marked stopped. */
  mayCallModel(): boolean {
    if (this.modelCalls < this.limits.modelCallsPerTurn) return true;
    this.stopForModelCalls();
    return false;
  }

  /** Splits one message's tool calls into those that run (counted) and those refused. */
  admitToolCalls<T>(calls: T[]): { run: T[]; refused: RefusedToolCall<T>[] } {
    const { toolCallsPerMessage, toolCallsPerTurn } = this.limits;
    const run: T[] = [];
    const refused: RefusedToolCall<T>[] = [];
    calls.forEach((call, index) => {
      if (index >= toolCallsPerMessage) {
        refused.push({
          call,
          message: `Not run: one message may call at most ${toolCallsPerMessage} tools (LLM_MAX_TOOL_CALLS_PER_MESSAGE); only the first ${toolCallsPerMessage} ran. Ask for fewer things at a time.`,
        });
      } else if (this.toolCalls >= toolCallsPerTurn) {
        refused.push({
          call,
          message: `Not run: this answer has used all ${toolCallsPerTurn} of its tool calls (LLM_MAX_TOOL_CALLS_PER_TURN), so it was stopped.`,
        });
        this.stopped ??= new AppError(
          'RATE_LIMITED',
          `This answer asked for more than ${toolCallsPerTurn} tool calls, the most one answer may make (LLM_MAX_TOOL_CALLS_PER_TURN), so it was stopped. Ask a narrower question.`,
        );
      } else {
        this.toolCalls++;
        run.push(call);
      }
    });
    return { run, refused };
  }

  private stopForModelCalls(): AppError {
    this.stopped ??= new AppError(
      'RATE_LIMITED',
      `This answer needed more than ${this.limits.modelCallsPerTurn} model calls, the most one answer may make (LLM_MAX_MODEL_CALLS_PER_TURN), so it was stopped. Ask a narrower question.`,
    );
    return this.stopped;
  }
}
