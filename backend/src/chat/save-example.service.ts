import { Injectable } from '@nestjs/common';
import type { ExampleQuery } from '@aigis/contracts';
import { AgentFacade } from '../agent/agent.facade.js';
import { AppError } from '../common/app-error.js';
import { ExamplesService } from '../knowledge/examples.service.js';
import type { SaveAnswerInput } from '@aigis/contracts';
import { QueryAuditRepository } from '../storage/repositories/query-audit.repository.js';
import { ThreadsService } from './threads.service.js';

/** Statements of the thread looked at to recover the SQL as written (before an appended row cap). */
const RECENT_STATEMENTS = 200;

/**
 * "Save as example": the question and the SQL that ran in one answer become an example of a connection. The
 * caller must own the thread (404 otherwise) and the connection (404); the SQL is verified on that connection
 * again, like any example.
 */
@Injectable()
export class SaveExampleService {
  constructor(
    private readonly threads: ThreadsService,
    private readonly agent: AgentFacade,
    private readonly examples: ExamplesService,
    private readonly audit: QueryAuditRepository,
  ) {}

  async save(userId: string, connectionId: string, input: SaveAnswerInput, signal?: AbortSignal): Promise<ExampleQuery> {
    await this.threads.row(userId, input.thread_id);
    const found = await this.agent.answerExample(input.thread_id, input.message_id);
    if (!found) {
      throw new AppError('VALIDATION_FAILED', 'message_id: no query result with this id in the thread (name a tool message with a table, or its tool call).');
    }
    const question = input.question ?? found.question;
    if (!question) throw new AppError('VALIDATION_FAILED', 'question: a SQL: message has no question of its own; give the question this SQL answers.');
    const ran = await this.audit.okSqlInThread(userId, connectionId, input.thread_id, RECENT_STATEMENTS);
    return this.examples.add(userId, connectionId, { question, sql: asWritten(found.sql, ran) }, { source: 'answer', threadId: input.thread_id, signal });
  }
}

/**
 * The statement as written, when `executed` is it with the row cap the MySQL adapter appends (`\nLIMIT n`):
 * among the statements the audit log saw run, the one `executed` equals or extends by exactly that suffix.
 */
function asWritten(executed: string, ran: string[]): string {
  if (ran.includes(executed)) return executed;
  const original = ran.find((sql) => executed.startsWith(sql) && /^\nLIMIT \d+$/.test(executed.slice(sql.length)));
  return original ?? executed;
}
