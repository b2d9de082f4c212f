import type { AppDb } from '../../database.js';
import type { KnowledgeTableNotesTable } from '../../schema.js';
import { countOf } from './count.js';

export class KnowledgeTableNotesRepository {
  constructor(private readonly db: AppDb) {}

  list(connectionId: string): Promise<KnowledgeTableNotesTable[]> {
    return this.db
      .selectFrom('knowledge_table_notes')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .orderBy('schema_name')
      .orderBy('table_name')
      .execute();
  }

  find(connectionId: string, schemaName: string, tableName: string): Promise<KnowledgeTableNotesTable | undefined> {
    return this.db
      .selectFrom('knowledge_table_notes')
      .selectAll()
      .where('connection_id', '=', connectionId)
      .where('schema_name', '=', schemaName)
      .where('table_name', '=', tableName)
      .executeTakeFirst();
  }

  count(connectionId: string): Promise<number> {
    return countOf(this.db.selectFrom('knowledge_table_notes').where('connection_id', '=', connectionId));
  }

  /** Creates the note of a table or replaces it (the row keeps its id). */
  async put(row: KnowledgeTableNotesTable): Promise<void> {
    await this.db
      .insertInto('knowledge_table_notes')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['connection_id', 'schema_name', 'table_name']).doUpdateSet({
          description: row.description,
          column_notes: row.column_notes,
          data_quality: row.data_quality,
          updated_at: row.updated_at,
        }),
      )
      .execute();
  }

  async delete(connectionId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('knowledge_table_notes').where('connection_id', '=', connectionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async deleteAll(connectionId: string): Promise<void> {
    await this.db.deleteFrom('knowledge_table_notes').where('connection_id', '=', connectionId).execute();
  }
}
