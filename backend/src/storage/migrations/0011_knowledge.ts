import type { ColumnDefinitionBuilder, Kysely } from 'kysely';

const connection = (c: ColumnDefinitionBuilder) => c.notNull().references('connections.id').onDelete('cascade');

// A connection's knowledge (instructions, glossary, table notes, example queries, learned corrections) and the
// per-thread switch for examples. Every row belongs to a connection and goes with it (cascade); ownership is the
// connection's. Dialect-neutral: the same statements run on SQLite (embedded) and PostgreSQL (server mode).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('knowledge_instructions')
    .addColumn('connection_id', 'text', (c) => connection(c).primaryKey())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('knowledge_glossary')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', connection)
    .addColumn('term', 'text', (c) => c.notNull())
    // The term folded for uniqueness ("MRR" and "mrr" are one term).
    .addColumn('term_key', 'text', (c) => c.notNull())
    .addColumn('definition', 'text', (c) => c.notNull())
    .addColumn('sql', 'text')
    .addColumn('unit', 'text')
    /** JSON array of strings. */
    .addColumn('caveats', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('knowledge_glossary_term_uq', ['connection_id', 'term_key'])
    .execute();

  await db.schema
    .createTable('knowledge_table_notes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', connection)
    // '' for no schema, so the unique key holds (NULLs never collide).
    .addColumn('schema_name', 'text', (c) => c.notNull())
    .addColumn('table_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    /** JSON object column → note. */
    .addColumn('column_notes', 'text', (c) => c.notNull())
    /** JSON array of strings. */
    .addColumn('data_quality', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('knowledge_table_notes_table_uq', ['connection_id', 'schema_name', 'table_name'])
    .execute();

  await db.schema
    .createTable('knowledge_examples')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', connection)
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('sql', 'text', (c) => c.notNull())
    // Normalised question + SQL: the same example is kept once.
    .addColumn('content_key', 'text', (c) => c.notNull())
    /** manual | answer | import */
    .addColumn('source', 'text', (c) => c.notNull())
    // No foreign key: the example outlives the thread it came from.
    .addColumn('thread_id', 'text')
    .addColumn('row_count', 'integer', (c) => c.notNull())
    /** JSON array of the result's column names. */
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('elapsed_ms', 'integer', (c) => c.notNull())
    .addColumn('verified_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('knowledge_examples_content_uq', ['connection_id', 'content_key'])
    .execute();

  await db.schema
    .createTable('knowledge_learnings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('connection_id', 'text', connection)
    .addColumn('category', 'text', (c) => c.notNull())
    /** JSON array of table names. */
    .addColumn('tables', 'text', (c) => c.notNull())
    .addColumn('failed_sql', 'text')
    .addColumn('working_sql', 'text', (c) => c.notNull())
    .addColumn('lesson', 'text', (c) => c.notNull())
    // Hash of the normalised content: a repeat raises confidence instead of adding a row.
    .addColumn('content_key', 'text', (c) => c.notNull())
    .addColumn('confidence', 'integer', (c) => c.notNull())
    .addColumn('thread_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('knowledge_learnings_content_uq', ['connection_id', 'content_key'])
    .execute();
  await db.schema.createIndex('knowledge_learnings_rank_idx').on('knowledge_learnings').columns(['connection_id', 'confidence']).execute();

  // save_learning and "Save as example" look up what ran in a thread.
  await db.schema.createIndex('query_audit_thread_idx').on('query_audit').columns(['thread_id', 'created_at']).execute();

  // 1: the SQL writer gets the most similar examples; 0: it does not (to measure what they add).
  await db.schema.alterTable('threads').addColumn('knowledge_examples', 'integer', (c) => c.notNull().defaultTo(1)).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('threads').dropColumn('knowledge_examples').execute();
  await db.schema.dropIndex('query_audit_thread_idx').execute();
  for (const table of ['knowledge_learnings', 'knowledge_examples', 'knowledge_table_notes', 'knowledge_glossary', 'knowledge_instructions']) {
    await db.schema.dropTable(table).execute();
  }
}
