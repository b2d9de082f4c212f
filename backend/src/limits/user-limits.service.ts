import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { BackendBudget } from './backend-budget.js';
import { rateLimited } from '../common/rate-limited.js';
import { TurnBudget } from './turn-budget.js';
import { type Release, UserSlots } from './user-slots.js';

/** Seconds a client is told to wait when too many of its queries or answers run at once. */
const QUERY_RETRY_AFTER_S = 2;
const STREAM_RETRY_AFTER_S = 5;
/** How long a request waits for one of the user's busy database connections before RATE_LIMITED. */
const BACKEND_WAIT_MS = 3000;

/**
 * The per-user limits of this API process (in memory: with several processes, each enforces them on
 * its own share of the requests). Every slot is given back in a `finally` of the code that took it.
 */
@Injectable()
export class UserLimits {
  private readonly queries: UserSlots;
  private readonly streams: UserSlots;
  private readonly backendBudgets = new Map<string, BackendBudget>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.queries = new UserSlots(config.USER_MAX_CONCURRENT_QUERIES, (limit) =>
      rateLimited(`You already have ${limit} queries running at once, the most one user may run (USER_MAX_CONCURRENT_QUERIES).`, QUERY_RETRY_AFTER_S),
    );
    this.streams = new UserSlots(config.USER_MAX_CONCURRENT_STREAMS, (limit) =>
      rateLimited(`You already have ${limit} answers streaming at once, the most one user may have (USER_MAX_CONCURRENT_STREAMS).`, STREAM_RETRY_AFTER_S),
    );
  }

  /** A slot for one query on a user database (a query, a direct SQL message, an introspection); throws RATE_LIMITED when full. */
  query(userId: string): Release {
    return this.queries.take(userId);
  }

  /** A slot for one streamed answer; throws RATE_LIMITED when full. */
  stream(userId: string): Release {
    return this.streams.take(userId);
  }

  /** The user's budget of open database connections, shared by all their pools. */
  backends(userId: string): BackendBudget {
    let budget = this.backendBudgets.get(userId);
    if (!budget) {
      // Forget budgets nobody uses any more, so the map follows the users with open pools.
      for (const [id, b] of this.backendBudgets) if (b.unused) this.backendBudgets.delete(id);
      budget = new BackendBudget(this.config.USER_MAX_DB_CONNECTIONS, BACKEND_WAIT_MS);
      this.backendBudgets.set(userId, budget);
    }
    return budget;
  }

  turn(): TurnBudget {
    return new TurnBudget({
      toolCallsPerMessage: this.config.LLM_MAX_TOOL_CALLS_PER_MESSAGE,
      toolCallsPerTurn: this.config.LLM_MAX_TOOL_CALLS_PER_TURN,
      modelCallsPerTurn: this.config.LLM_MAX_MODEL_CALLS_PER_TURN,
    });
  }

  /** What a user holds now (tests and diagnostics). */
  usage(userId: string): { queries: number; streams: number; connections: number } {
    return { queries: this.queries.count(userId), streams: this.streams.count(userId), connections: this.backendBudgets.get(userId)?.inUse ?? 0 };
  }
}
