import type { Updateable } from 'kysely';
import type { AppDb } from '../../database.js';
import type { KnowledgeGlossaryTable } from '../../schema.js';
import { countOf } from './count.js';

export class KnowledgeGlossaryRepository {
  constructor(private readonly db: AppDb) {}

  list(connectionId: string): Promise<KnowledgeGlossaryTable[]> {
    return this.db.selectFrom('knowledge_glossary').selectAll().where('connection_id', '=', connectionId).orderBy('term_key').execute();
  }

  find(connectionId: string, id: string): Promise<KnowledgeGlossaryTable | undefined> {
    return this.db.selectFrom('knowledge_glossary').selectAll().where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
  }

  findByTerm(connectionId: string, termKey: string): Promise<KnowledgeGlossaryTable | undefined> {
    return this.db.selectFrom('knowledge_glossary').selectAll().where('connection_id', '=', connectionId).where('term_key', '=', termKey).executeTakeFirst();
  }

  count(connectionId: string): Promise<number> {
    return countOf(this.db.selectFrom('knowledge_glossary').where('connection_id', '=', connectionId));
  }

  async insert(row: KnowledgeGlossaryTable): Promise<void> {
    await this.db.insertInto('knowledge_glossary').values(row).execute();
  }

  async update(connectionId: string, id: string, patch: Updateable<KnowledgeGlossaryTable>): Promise<boolean> {
    const result = await this.db.updateTable('knowledge_glossary').set(patch).where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(connectionId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('knowledge_glossary').where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAll(connectionId: string): Promise<void> {
    await this.db.deleteFrom('knowledge_glossary').where('connection_id', '=', connectionId).execute();
  }
}
