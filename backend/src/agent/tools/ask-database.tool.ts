import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { QueryResponse, SqlResultContent, TableNote, ToolErrorCode } from '@aigis/contracts';
import { z } from 'zod';
import { AppError, isAppError } from '../../common/app-error.js';
import type { ConnectionsService } from '../../connections/connections.service.js';
import type { SchemaService } from '../../connections/schema.service.js';
import type { ReadOnlyExecutor } from '../../query/read-only-executor.js';
import type { ModelResolver } from '../model-resolver.js';
import type { ReviewService } from '../review/review.service.js';
import { extractSql } from '../model-output.js';
import { excerptTable, excerptValue, TOOL_RESULT_EXCERPT } from '../result-excerpt.js';
import { ERROR_GUIDANCE, sqlRetryMessage, sqlWriterPrompt, type SqlWriterKnowledge } from '../prompts.js';
import { type AgentTool, innerCallConfig, messageText, toolError, type ToolOutcome, type ToolRunContext } from './agent-tool.js';

/** First try plus corrections fed back with the error and its class. */
export const MAX_SQL_CORRECTIONS = 3;

const schema = z.object({
  question: z.string().min(1).describe('A self-contained question in plain language, with every filter, grouping and time range.'),
});

export interface AskDatabaseDeps {
  models: ModelResolver;
  executor: ReadOnlyExecutor;
  schemas: SchemaService;
  connections: ConnectionsService;
  /** Review before run: whether the user sees the query first. */
  review: Pick<ReviewService, 'assess'>;
  /** The connection's knowledge for the SQL writer: the owner's notes, and the examples (when the thread wants them). */
  knowledge: {
    notes(userId: string, connectionId: string): Promise<string | null>;
    examples(userId: string, connectionId: string, question: string): Promise<string | null>;
    /** The owner's table and column notes, shown with their tables in the schema. */
    tableNotes(connectionId: string): Promise<TableNote[]>;
    examplesOn(userId: string, threadId: string): Promise<boolean>;
  };
}

/** Errors that no rewrite of the SQL can fix: report them at once. */
const NOT_THE_SQL = new Set(['CONNECTION_FAILED', 'SECRET_UNREADABLE', 'NOT_FOUND', 'QUERY_CANCELLED', 'RATE_LIMITED']);

export interface AskDatabaseTool extends AgentTool<typeof schema> {
  /** A `SQL:` message's statement: reviewed and run as written, without a model; every failure is the call's answer. */
  runStatement(sql: string, context: ToolRunContext): Promise<ToolOutcome>;
}

export function askDatabaseTool(deps: AskDatabaseDeps): AskDatabaseTool {
  return {
    name: 'ask_database',
    description:
      "Answers a question from the connected database: writes one read-only SQL query for the question, runs it, and returns the SQL and the rows. Give a complete question in plain language, not SQL.",
    schema,
    async run({ question }, context): Promise<ToolOutcome> {
      const { state } = context;
      if (!state.connection) return toolError('NO_CONNECTION', 'No database is connected to this conversation. Ask the user to choose a connection for this thread.');
      const { user_id: userId, connection_id: connectionId } = state.connection;
      let dialect;
      let prompt;
      let knowledge;
      try {
        dialect = (await deps.connections.get(userId, connectionId)).dialect;
        // Read now, not from the thread's stored schema: the connection's table policy may have changed since, and a
        // large schema is narrowed to the tables this question is about.
        prompt = await deps.schemas.promptSchema(userId, connectionId, question, { signal: context.signal, notes: await deps.knowledge.tableNotes(connectionId) });
        knowledge = await sqlWriterKnowledge(deps.knowledge, userId, connectionId, context.threadId, question);
      } catch (error) {
        if (isAppError(error)) return toolError(error.code, error.message);
        throw error;
      }
      const model = deps.models.chatModel(state.model_name!, { signal: context.signal });
      const transcript: BaseMessage[] = [new SystemMessage(sqlWriterPrompt(dialect, prompt.markdown, prompt.markdown_mode, knowledge)), new HumanMessage(question)];
      let last: { code: ToolErrorCode; message: string; sql?: string } = { code: 'QUERY_FAILED', message: 'no query was written' };

      for (let attempt = 0; attempt <= MAX_SQL_CORRECTIONS; attempt++) {
        const reply = await model.invoke(transcript, innerCallConfig(context));
        const text = messageText(reply.content);
        const sql = extractSql(text);
        transcript.push(new AIMessage(text));
        if (!sql) {
          last = { code: 'QUERY_FAILED', message: 'the model did not write a SQL query' };
          transcript.push(new HumanMessage(sqlRetryMessage('empty', 'no SQL query found in your reply')));
          continue;
        }
        try {
          const outcome = await reviewThenRun(deps, { userId, connectionId, sql, direct: false, modelName: state.model_name }, context);
          return attempt > 0 && !outcome.pause && last.sql ? withCorrection(outcome, attempt, last) : outcome;
        } catch (error) {
          if (context.signal?.aborted) throw error;
          if (!isAppError(error)) throw error;
          if (NOT_THE_SQL.has(error.code)) return toolError(error.code, error.message, sql);
          const errorClass = errorClassOf(error);
          last = { code: error.code, message: error.message, sql };
          transcript.push(new HumanMessage(sqlRetryMessage(errorClass, error.message)));
        }
      }
      const attempts = MAX_SQL_CORRECTIONS + 1;
      return toolError(last.code, `${last.message} (after ${attempts} attempts)`, last.sql);
    },

    async runStatement(sql, context): Promise<ToolOutcome> {
      const { connection } = context.state;
      if (!connection) return toolError('NO_CONNECTION', 'Choose a connection for this conversation first, then send the SQL again.', sql);
      try {
        return await reviewThenRun(deps, { userId: connection.user_id, connectionId: connection.connection_id, sql, direct: true, modelName: null }, context);
      } catch (error) {
        if (!isAppError(error)) throw error;
        return toolError(error.code, error.message, sql);
      }
    },
  };
}

/**
 * Review before run, then the read-only executor: a query the user must see first pauses the turn here (the review
 * node asks). Query errors are thrown.
 */
async function reviewThenRun(
  deps: AskDatabaseDeps,
  query: { userId: string; connectionId: string; sql: string; direct: boolean; modelName: string | null },
  context: ToolRunContext,
): Promise<ToolOutcome> {
  const { userId, connectionId, sql, modelName } = query;
  const pause = await deps.review.assess({ userId, connectionId, threadId: context.threadId, sql, toolCallId: context.toolCallId, toolName: 'ask_database', direct: query.direct, modelName, signal: context.signal });
  if (pause) return { content: '', result: { type: 'text', text: '' }, pause };
  return success(sql, await deps.executor.run({ userId, connectionId, sql, threadId: context.threadId, modelName, signal: context.signal }));
}

/**
 * A query that worked only after corrections says so, with the last failed SQL and its error (bounded): what the
 * assistant needs to record a learning (save_learning) about this database.
 */
function withCorrection(outcome: ToolOutcome, failures: number, failed: { message: string; sql?: string }): ToolOutcome {
  const half = TOOL_RESULT_EXCERPT.totalChars / 4;
  const note = [
    `This query worked after ${failures} failed attempt(s). The last one that failed:`,
    excerptValue(failed.sql ?? '', half),
    `Error: ${excerptValue(failed.message, half)}`,
    'If that mistake teaches something reusable about this database, record it with save_learning (failed_sql: the failed query, working_sql: the query that ran, copied exactly).',
  ].join('\n');
  return { ...outcome, content: `${outcome.content}\n\n${note}` };
}

function errorClassOf(error: AppError): keyof typeof ERROR_GUIDANCE {
  if (error.code === 'SQL_REJECTED') return 'rejected';
  if (error.code === 'QUERY_TIMEOUT') return 'timeout';
  const detailClass = (error.details as { class?: string } | undefined)?.class;
  return detailClass && detailClass in ERROR_GUIDANCE ? (detailClass as keyof typeof ERROR_GUIDANCE) : 'execution';
}

export function success(sql: string, result: Awaited<ReturnType<ReadOnlyExecutor['run']>>): ToolOutcome {
  return {
    content: describeForModel(sql, result),
    result: sqlResultContent(sql, result),
    // The rows stay in memory for a later call of this step; the stored sql_result drops them (state.ts).
    update: { sql_result: { sql, columns: result.columns, rows: result.rows, row_count: result.row_count, truncated: result.truncated } },
  };
}

/** The table as the user sees it (stream event and thread), from the executor's answer. */
export function sqlResultContent(sql: string, result: QueryResponse): SqlResultContent {
  return {
    type: 'sql_result',
    sql: result.sql_executed || sql,
    columns: result.columns,
    rows: result.rows,
    row_count: result.row_count,
    truncated: result.truncated,
    ...(result.truncated_reason ? { truncated_reason: result.truncated_reason } : {}),
    elapsed_ms: result.elapsed_ms,
  };
}

const TRUNCATION_NOTE: Record<NonNullable<QueryResponse['truncated_reason']>, string> = {
  row_limit: 'the row limit was reached',
  result_bytes: "the result's byte budget was reached",
  turn_store_bytes: "this turn's storage budget was reached",
};

/**
 * A bounded excerpt the model can reason over: the SQL, the shape, and the first rows as a table with every value
 * shortened (its size given when it was cut), whatever the size of the result.
 */
export function describeForModel(
  sql: string,
  result: { columns: string[]; rows: Record<string, unknown>[]; row_count: number; truncated: boolean; truncated_reason?: QueryResponse['truncated_reason'] },
): string {
  const limits = TOOL_RESULT_EXCERPT;
  const why = result.truncated_reason ? `: ${TRUNCATION_NOTE[result.truncated_reason]}` : '';
  const head = [
    `Ran:\n${excerptValue(sql, limits.totalChars / 2)}`,
    `${result.row_count} row(s)${result.truncated ? ` (truncated${why}; there are more than ${result.row_count})` : ''}. Columns: ${excerptValue(result.columns.join(', '), limits.totalChars / 4)}.`,
  ];
  if (result.rows.length === 0) return [...head, 'No rows matched.'].join('\n');
  const { table, shown } = excerptTable(result.columns, result.rows, { ...limits, totalChars: limits.totalChars - head.join('\n').length });
  return [...head, `${shown < result.rows.length ? `First ${shown} rows` : 'Rows'}:`, table].join('\n');
}

/** The notes, and the examples most like the question unless the thread turned examples off (knowledge_examples). */
async function sqlWriterKnowledge(
  knowledge: AskDatabaseDeps['knowledge'],
  userId: string,
  connectionId: string,
  threadId: string,
  question: string,
): Promise<SqlWriterKnowledge> {
  const [notes, examples] = await Promise.all([
    knowledge.notes(userId, connectionId),
    knowledge.examplesOn(userId, threadId).then((on) => (on ? knowledge.examples(userId, connectionId, question) : null)),
  ]);
  return { notes, examples };
}
