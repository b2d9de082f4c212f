import type { Kysely } from 'kysely';

// One answer at a time per thread, across every API process: a lease row while a turn runs.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('thread_turns')
    .addColumn('thread_id', 'text', (c) => c.primaryKey().references('threads.id').onDelete('cascade'))
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('thread_turns').execute();
}
