import type { BaseMessage } from '@langchain/core/messages';
import type { MarkdownMode, ReviewProposal } from '@aigis/contracts';
import { Annotation, type Messages, messagesStateReducer } from '@langchain/langgraph';
import { boundTurnStore, DEFAULT_TURN_STORE_MAX_BYTES, type SqlResultState, withoutRows } from './stored-results.js';

/** The thread's database, by reference only: credentials are looked up (and opened) at call time. */
export interface ThreadConnection {
  user_id: string;
  connection_id: string;
}

/** A query paused for the user's decision (review before run); the review node interrupts with its proposal. */
export interface PendingReview {
  proposal: ReviewProposal;
  user_id: string;
  connection_id: string;
  /** The tool whose call waits (ask_database). */
  tool_name: string;
}

/** The graph's state; `turnStoreMaxBytes` bounds the tool results one turn stores (TURN_STORE_MAX_BYTES). */
export function createAigisState(turnStoreMaxBytes = DEFAULT_TURN_STORE_MAX_BYTES) {
  return Annotation.Root({
    /** The conversation; appended to (and replaced by id) through LangGraph's messages reducer, each turn's tool results within the turn's budget. */
    messages: Annotation<BaseMessage[], Messages>({ reducer: (left, right) => messagesStateReducer(left, boundTurnStore(left, right, turnStoreMaxBytes)), default: () => [] }),
    /** The registry name of this thread's model; the assistant and every tool resolve it at call time. */
    model_name: Annotation<string | null>({ reducer: (_, next) => next, default: () => null }),
    /** Compact markdown of the connected schema (tables, columns, keys, sample rows), within its budget. */
    db_schema: Annotation<string | null>({ reducer: (_, next) => next, default: () => null }),
    /** How db_schema was rendered (the schema's markdown_mode): 'compact' means tables are only listed and describe_table gives details. */
    markdown_mode: Annotation<MarkdownMode | null>({ reducer: (_, next) => next, default: () => null }),
    /**
     * markdown_mode under the name threads stored it by before (checkpoints written until it was renamed). Never
     * written; read through storedMarkdownMode() so such a thread keeps its schema's mode. It stays declared because
     * LangGraph restores only the channels the state declares.
     */
    schema_mode: Annotation<MarkdownMode | null>({ reducer: (_, next) => next, default: () => null }),
    /** Which connection the tools query. */
    connection: Annotation<ThreadConnection | null>({ reducer: (_, next) => next, default: () => null }),
    /** The last query result, the data ask_analyst charts (stored without its rows). */
    sql_result: Annotation<SqlResultState | null>({ reducer: (_, next) => withoutRows(next), default: () => null }),
    /** A query waiting for the user's approval; null when none. */
    pending_review: Annotation<PendingReview | null>({ reducer: (_, next) => next, default: () => null }),
  });
}

export const AigisState = createAigisState();

export type AigisStateType = typeof AigisState.State;
export type AigisStateUpdate = typeof AigisState.Update;

/** How the thread's stored schema (db_schema) was rendered, also when its checkpoint predates the name markdown_mode. */
export function storedMarkdownMode(state: Pick<AigisStateType, 'markdown_mode' | 'schema_mode'>): MarkdownMode | null {
  return state.markdown_mode ?? state.schema_mode;
}
