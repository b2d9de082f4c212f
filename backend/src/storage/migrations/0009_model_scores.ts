import type { Kysely } from 'kysely';

// The accuracy harness's score of each run (npm run eval): instance-wide, like the model registry; the models
// list shows each model's last one. Dialect-neutral (SQLite embedded, PostgreSQL in server mode).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('model_scores')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // The registry's name of the model (case as the registry spells it).
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('benchmark', 'text', (c) => c.notNull())
    // on | off: whether the connections' example queries reached the prompts.
    .addColumn('examples', 'text', (c) => c.notNull())
    .addColumn('correct', 'integer', (c) => c.notNull())
    .addColumn('questions', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('model_scores_model_idx').on('model_scores').columns(['model', 'run_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('model_scores').execute();
}
