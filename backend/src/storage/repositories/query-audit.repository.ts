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

  listByUser(userId: string, limit = 100): Promise<QueryAuditTable[]> {
    return this.db.selectFrom('query_audit').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').limit(limit).execute();
  }
}
