/** What the confirm route resumes the graph with (LangGraph `Command({ resume })`), after validating it. */
export interface ReviewAnswer {
  decision: 'approve' | 'deny';
  /** Approve: the SQL to run (the proposal's, or the user's edit, already accepted by the guard). */
  sql: string | null;
  /** Deny: the user's reason, for the model. */
  reason: string | null;
}

/** Marks an AIMessage we wrote for a `SQL:` message (model messages never carry additional_kwargs). */
export const DIRECT_SQL_FLAG = 'aigis_direct_sql';
