import type { BaseMessage } from '@langchain/core/messages';
import { Annotation, messagesStateReducer } from '@langchain/langgraph';

/** The thread's database, by reference only: credentials are looked up (and opened) at call time. */
export interface ThreadConnection {
  user_id: string;
  connection_id: string;
}

/** The last successful query of the thread, kept for ask_analyst (rows capped at the row limit). */
export interface SqlResultState {
  sql: string;
  columns: string[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
}

export const AigisState = Annotation.Root({
  /** The conversation; appended to (and replaced by id) through LangGraph's messages reducer. */
  messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
  /** The registry name of this thread's model; the assistant and every tool resolve it at call time. */
  model_name: Annotation<string | null>({ reducer: (_, next) => next, default: () => null }),
  /** Compact markdown of the connected schema (tables, columns, keys, sample rows), within its budget. */
  db_schema: Annotation<string | null>({ reducer: (_, next) => next, default: () => null }),
  /** How db_schema was rendered: 'compact' means tables are only listed and describe_table gives details. */
  schema_mode: Annotation<string | null>({ reducer: (_, next) => next, default: () => null }),
  /** Which connection the tools query. */
  connection: Annotation<ThreadConnection | null>({ reducer: (_, next) => next, default: () => null }),
  /** The last query result, the data ask_analyst charts. */
  sql_result: Annotation<SqlResultState | null>({ reducer: (_, next) => next, default: () => null }),
});

export type AigisStateType = typeof AigisState.State;
export type AigisStateUpdate = typeof AigisState.Update;
