import type { AppDb } from '../../database.js';
import type { KnowledgeInstructionsTable } from '../../schema.js';

export class KnowledgeInstructionsRepository {
  constructor(private readonly db: AppDb) {}

  find(connectionId: string): Promise<KnowledgeInstructionsTable | undefined> {
    return this.db.selectFrom('knowledge_instructions').selectAll().where('connection_id', '=', connectionId).executeTakeFirst();
  }

  async put(row: KnowledgeInstructionsTable): Promise<void> {
    await this.db
      .insertInto('knowledge_instructions')
      .values(row)
      .onConflict((oc) => oc.column('connection_id').doUpdateSet({ text: row.text, updated_at: row.updated_at }))
      .execute();
  }

  async deleteAll(connectionId: string): Promise<void> {
    await this.db.deleteFrom('knowledge_instructions').where('connection_id', '=', connectionId).execute();
  }
}
