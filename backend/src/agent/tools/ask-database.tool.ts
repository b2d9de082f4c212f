import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { QueryResponse, SqlResultContent } from '@aigis/contracts';
import { z } from 'zod';
import { AppError, isAppError } from '../../common/app-error.js';
import type { ConnectionsService } from '../../connections/connections.service.js';
import type { SchemaService } from '../../connections/schema.service.js';
import type { ReadOnlyExecutor } from '../../query/read-only-executor.js';
import type { ModelResolver } from '../model-resolver.js';
import type { ReviewService } from '../review/review.service.js';
import { extractSql } from '../model-output.js';
import { excerptTable, excerptValue, TOOL_RESULT_EXCERPT } from '../result-excerpt.js';
import { ERROR_GUIDANCE, sqlRetryMessage, sqlWriterPrompt } from '../prompts.js';
import { type AgentTool, innerCallConfig, messageText, toolError, type ToolOutcome } from './agent-tool.js';

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
}

/** Errors that no rewrite of the SQL can fix: report them at once. */
const NOT_THE_SQL = new Set(['CONNECTION_FAILED', 'SECRET_UNREADABLE', 'NOT_FOUND', 'QUERY_CANCELLED', 'RATE_LIMITED']);

export function askDatabaseTool(deps: AskDatabaseDeps): AgentTool<typeof schema> {
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
      let dbSchema = state.db_schema;
      try {
        dialect = (await deps.connections.get(userId, connectionId)).dialect;
        dbSchema ??= (await deps.schemas.get(userId, connectionId, { signal: context.signal })).markdown;
      } catch (error) {
        if (isAppError(error)) return toolError(error.code, error.message);
        throw error;
      }
      const model = deps.models.chatModel(state.model_name!, { signal: context.signal });
      const transcript: BaseMessage[] = [new SystemMessage(sqlWriterPrompt(dialect, dbSchema, state.schema_mode)), new HumanMessage(question)];
      let last: { code: string; message: string; sql?: string } = { code: 'QUERY_FAILED', message: 'no query was written' };

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
          // Review before run: a query the user must see first pauses the turn here (the review node asks).
          const pause = await deps.review.assess({ userId, connectionId, threadId: context.threadId, sql, toolCallId: context.toolCallId, toolName: 'ask_database', direct: false, modelName: state.model_name, signal: context.signal });
          if (pause) return { content: '', result: { type: 'text', text: '' }, pause };
          const result = await deps.executor.run({
            userId,
            connectionId,
            sql,
            threadId: context.threadId,
            modelName: state.model_name,
            signal: context.signal,
          });
          return success(sql, result);
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
  };
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
