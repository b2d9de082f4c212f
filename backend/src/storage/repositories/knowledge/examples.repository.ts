import type { Updateable } from 'kysely';
import type { AppDb } from '../../database.js';
import type { KnowledgeExamplesTable } from '../../schema.js';
import { countOf } from './count.js';

/** What the retrieval index needs of an example. */
export type IndexedExample = Pick<KnowledgeExamplesTable, 'id' | 'question' | 'sql'>;

export class KnowledgeExamplesRepository {
  constructor(private readonly db: AppDb) {}

  list(connectionId: string): Promise<KnowledgeExamplesTable[]> {
    return this.db.selectFrom('knowledge_examples').selectAll().where('connection_id', '=', connectionId).orderBy('created_at').orderBy('id').execute();
  }

  listForIndex(connectionId: string): Promise<IndexedExample[]> {
    return this.db.selectFrom('knowledge_examples').select(['id', 'question', 'sql']).where('connection_id', '=', connectionId).orderBy('id').execute();
  }

  find(connectionId: string, id: string): Promise<KnowledgeExamplesTable | undefined> {
    return this.db.selectFrom('knowledge_examples').selectAll().where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
  }

  findByContent(connectionId: string, contentKey: string): Promise<KnowledgeExamplesTable | undefined> {
    return this.db.selectFrom('knowledge_examples').selectAll().where('connection_id', '=', connectionId).where('content_key', '=', contentKey).executeTakeFirst();
  }

  count(connectionId: string): Promise<number> {
    return countOf(this.db.selectFrom('knowledge_examples').where('connection_id', '=', connectionId));
  }

  /**
   * Changes whenever the connection's examples change (any process): count and newest update. A deletion
   * lowers the count; an edit or an insert moves the newest time (times are ISO strings, unique enough per row).
   */
  async revision(connectionId: string): Promise<string> {
    const row = await this.db
      .selectFrom('knowledge_examples')
      .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('updated_at').as('newest')])
      .where('connection_id', '=', connectionId)
      .executeTakeFirstOrThrow();
    return `${Number(row.n)}:${row.newest ?? ''}`;
  }

  /** False when the same example (content key) is already kept. */
  async insert(row: KnowledgeExamplesTable): Promise<boolean> {
    const result = await this.db
      .insertInto('knowledge_examples')
      .values(row)
      .onConflict((oc) => oc.columns(['connection_id', 'content_key']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  async update(connectionId: string, id: string, patch: Updateable<KnowledgeExamplesTable>): Promise<boolean> {
    const result = await this.db.updateTable('knowledge_examples').set(patch).where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(connectionId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('knowledge_examples').where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAll(connectionId: string): Promise<void> {
    await this.db.deleteFrom('knowledge_examples').where('connection_id', '=', connectionId).execute();
  }
}
