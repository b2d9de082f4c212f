import type { Kysely } from 'kysely';

// The functions of their own a connection's owner lets queries call (JSON array of names); see sql-guard.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connections').addColumn('allowed_functions', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connections').dropColumn('allowed_functions').execute();
}
