import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import type { QueryAuditTable } from '../schema.js';
import { APP_DB } from '../tokens.js';

@Injectable()
export class QueryAuditRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  async insert(entry: QueryAuditTable): Promise<void> {
    await this.db.insertInto('query_audit').values(entry).execute();
  }

  /** The statements that ran successfully in a thread on a connection, newest first. */
  async okSqlInThread(userId: string, connectionId: string, threadId: string, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('query_audit')
      .select('sql')
      .where('user_id', '=', userId)
      .where('connection_id', '=', connectionId)
      .where('thread_id', '=', threadId)
      .where('status', '=', 'ok')
      .orderBy('created_at', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => r.sql);
  }

  listByUser(userId: string, limit = 100): Promise<QueryAuditTable[]> {
    return this.db.selectFrom('query_audit').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(limit).execute();
  }
}
