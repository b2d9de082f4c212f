import type { Kysely } from 'kysely';

// A connection's table policy (JSON arrays of `name`, `schema.name`, `schema.*`) and its own row cap and
// statement timeout (null: the instance's defaults); see sql-guard/table-policy.ts and the read-only executor.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('connections').addColumn('allowed_tables', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('connections').addColumn('excluded_tables', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('connections').addColumn('row_limit', 'integer').execute();
  await db.schema.alterTable('connections').addColumn('statement_timeout_ms', 'integer').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['statement_timeout_ms', 'row_limit', 'excluded_tables', 'allowed_tables']) {
    await db.schema.alterTable('connections').dropColumn(column).execute();
  }
}
