import type { Kysely } from 'kysely';

// Review before run: when a query is shown to the user first (connection setting, thread override), and the log
// of each decision. Dialect-neutral: the same statements run on SQLite (embedded) and PostgreSQL (server mode).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connections').addColumn('review', 'text', (c) => c.notNull().defaultTo('expensive')).execute();
  // Null thresholds mean "the defaults" (REVIEW_DEFAULT_THRESHOLDS), so a change of defaults reaches old rows.
  await db.schema.alterTable('connections').addColumn('review_max_cost', 'double precision').execute();
  await db.schema.alterTable('connections').addColumn('review_max_rows', 'double precision').execute();
  await db.schema.alterTable('connections').addColumn('review_scan_rows', 'double precision').execute();
  // Null: the thread follows its connection.
  await db.schema.alterTable('threads').addColumn('review', 'text').execute();

  // One row per decision on a proposal; its id is the proposal's, so a proposal is decided once (the
  // primary key settles two concurrent confirms, also across API processes).
  await db.schema
    .createTable('review_decisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // No foreign keys, like query_audit: the record outlives what it mentions.
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('thread_id', 'text', (c) => c.notNull())
    /** approved | denied | superseded */
    .addColumn('decision', 'text', (c) => c.notNull())
    .addColumn('proposed_sql', 'text', (c) => c.notNull())
    // What the user approved to run (null when denied); differs from proposed_sql when edited.
    .addColumn('approved_sql', 'text')
    .addColumn('reason', 'text')
    .addColumn('estimate', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('review_decisions_user_idx').on('review_decisions').columns(['user_id', 'created_at']).execute();
  // The execution an approval led to points back at it.
  await db.schema.alterTable('query_audit').addColumn('review_id', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('query_audit').dropColumn('review_id').execute();
  await db.schema.dropTable('review_decisions').execute();
  await db.schema.alterTable('threads').dropColumn('review').execute();
  for (const column of ['review_scan_rows', 'review_max_rows', 'review_max_cost', 'review']) {
    await db.schema.alterTable('connections').dropColumn(column).execute();
  }
}
