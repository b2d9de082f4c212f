import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { SqlResultContent } from '@aigis/contracts';
import { z } from 'zod';
import { AppError, isAppError } from '../../common/app-error.js';
import type { ConnectionsService } from '../../connections/connections.service.js';
import type { SchemaService } from '../../connections/schema.service.js';
import type { ReadOnlyExecutor } from '../../query/read-only-executor.js';
import type { ModelResolver } from '../model-resolver.js';
import { extractSql } from '../model-output.js';
import { ERROR_GUIDANCE, sqlRetryMessage, sqlWriterPrompt } from '../prompts.js';
import { type AgentTool, innerCallConfig, messageText, toolError, type ToolOutcome } from './agent-tool.js';

/** First try plus corrections fed back with the error and its class. */
export const MAX_SQL_CORRECTIONS = 3;
const ROWS_FOR_MODEL = 20;
const MODEL_CONTENT_CHARS = 4000;

const schema = z.object({
  question: z.string().min(1).describe('A self-contained question in plain language, with every filter, grouping and time range.'),
});

export interface AskDatabaseDeps {
  models: ModelResolver;
  executor: ReadOnlyExecutor;
  schemas: SchemaService;
  connections: ConnectionsService;
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

function success(sql: string, result: Awaited<ReturnType<ReadOnlyExecutor['run']>>): ToolOutcome {
  const content: SqlResultContent = {
    type: 'sql_result',
    sql: result.sql_executed || sql,
    columns: result.columns,
    rows: result.rows,
    row_count: result.row_count,
    truncated: result.truncated,
    elapsed_ms: result.elapsed_ms,
  };
  return {
    content: describeForModel(sql, result),
    result: content,
    update: { sql_result: { sql, columns: result.columns, rows: result.rows, row_count: result.row_count, truncated: result.truncated } },
  };
}

/** A compact text the model can reason over: the SQL, the shape, and the first rows as a table. */
export function describeForModel(sql: string, result: { columns: string[]; rows: Record<string, unknown>[]; row_count: number; truncated: boolean }): string {
  const head = [
    `Ran:\n${sql}`,
    `${result.row_count} row(s)${result.truncated ? ` (truncated: there are more than ${result.row_count})` : ''}. Columns: ${result.columns.join(', ')}.`,
  ];
  if (result.rows.length === 0) return [...head, 'No rows matched.'].join('\n');
  const shown = result.rows.slice(0, ROWS_FOR_MODEL);
  const cell = (v: unknown) => (v === null || v === undefined ? 'NULL' : typeof v === 'object' ? JSON.stringify(v) : String(v)).replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 80);
  const table = [
    `| ${result.columns.join(' | ')} |`,
    `|${result.columns.map(() => '---').join('|')}|`,
    ...shown.map((row) => `| ${result.columns.map((c) => cell(row[c])).join(' | ')} |`),
  ].join('\n');
  const text = [...head, `${shown.length < result.rows.length ? `First ${shown.length} rows` : 'Rows'}:`, table].join('\n');
  return text.length > MODEL_CONTENT_CHARS ? `${text.slice(0, MODEL_CONTENT_CHARS)}\n… (cut)` : text;
}
