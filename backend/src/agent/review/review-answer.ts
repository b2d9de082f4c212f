/** What the confirm route resumes the graph with (LangGraph `Command({ resume })`), after validating it. */
export interface ReviewAnswer {
  decision: 'approve' | 'deny';
  /** Approve: the SQL to run (the proposal's, or the user's edit, already accepted by the guard). */
  sql: string | null;
  /** Deny: the user's reason, for the model. */
  reason: string | null;
}

