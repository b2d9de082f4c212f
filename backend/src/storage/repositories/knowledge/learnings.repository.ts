import { sql, type Updateable } from 'kysely';
import type { AppDb } from '../../database.js';
import type { KnowledgeLearningsTable } from '../../schema.js';
import { countOf } from './count.js';

export class KnowledgeLearningsRepository {
  constructor(private readonly db: AppDb) {}

  /** Most confident first, then most recently confirmed. */
  list(connectionId: string, limit?: number): Promise<KnowledgeLearningsTable[]> {
    let query = this.db
      .selectFrom('knowledge_learnings')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .orderBy('confidence', 'desc')
      .orderBy('updated_at', 'desc')
      .orderBy('id');
    if (limit !== undefined) query = query.limit(limit);
    return query.execute();
  }

  find(connectionId: string, id: string): Promise<KnowledgeLearningsTable | undefined> {
    return this.db.selectFrom('knowledge_learnings').selectAll().where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
  }

  findByContent(connectionId: string, contentKey: string): Promise<KnowledgeLearningsTable | undefined> {
    return this.db.selectFrom('knowledge_learnings').selectAll().where('connection_id', '=', connectionId).where('content_key', '=', contentKey).executeTakeFirst();
  }

  count(connectionId: string): Promise<number> {
    return countOf(this.db.selectFrom('knowledge_learnings').where('connection_id', '=', connectionId));
  }

  /**
   * Adds a learning, or when the same content is already kept raises its confidence by `row.confidence`
   * (capped at `maxConfidence`) in the same statement, so two concurrent repeats both count.
   */
  async record(row: KnowledgeLearningsTable, maxConfidence: number): Promise<KnowledgeLearningsTable> {
    return this.db
      .insertInto('knowledge_learnings')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['connection_id', 'content_key']).doUpdateSet({
          // CASE rather than LEAST/min: one spelling for PostgreSQL and SQLite.
          confidence: sql<number>`case when knowledge_learnings.confidence + ${row.confidence} > ${maxConfidence} then ${maxConfidence} else knowledge_learnings.confidence + ${row.confidence} end`,
          updated_at: row.updated_at,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  }

  async update(connectionId: string, id: string, patch: Updateable<KnowledgeLearningsTable>): Promise<boolean> {
    const result = await this.db.updateTable('knowledge_learnings').set(patch).where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(connectionId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('knowledge_learnings').where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAll(connectionId: string): Promise<void> {
    await this.db.deleteFrom('knowledge_learnings').where('connection_id', '=', connectionId).execute();
  }
}
