import { type Kysely, sql } from 'kysely';

// Dialect-neutral: the same migration runs on SQLite (embedded) and PostgreSQL (server mode).
export async function up(db: Kysely<unknown>): Promise<void> {
  // disable | require | verify-ca | verify-full; the old ssl flag meant require.
  await db.schema.alterTable('connections').addColumn('ssl_mode', 'text', (c) => c.notNull().defaultTo('disable')).execute();
  await sql`UPDATE connections SET ssl_mode = 'require' WHERE ssl = 1`.execute(db);
  // A CA certificate is public, so it is stored as given (PEM, bounded by the input schema).
  await db.schema.alterTable('connections').addColumn('ssl_ca', 'text').execute();
  // JSON array from the last connection test (null: not tested since the connection last changed).
  await db.schema.alterTable('connections').addColumn('elevated_privileges', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['elevated_privileges', 'ssl_ca', 'ssl_mode']) {
    await db.schema.alterTable('connections').dropColumn(column).execute();
  }
}
