import type { Kysely } from 'kysely';

// Roles, disabled accounts, invites, instance settings, SQLite grants and registration attempts.
// Dialect-neutral like 0001: the same statements run on SQLite and PostgreSQL.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('role', 'text', (c) => c.notNull().defaultTo('member')).execute();
  await db.schema.alterTable('users').addColumn('disabled_at', 'text').execute();
  // An instance that had accounts before roles existed: its first account becomes the admin.
  const first = await db.selectFrom('users').select('id').orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
  if (first) await db.updateTable('users').set({ role: 'admin' }).where('id', '=', first.id).execute();

  await db.schema
    .createTable('instance_settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // The first-account claim is a row with a primary key, so two concurrent first registrations cannot both win.
  if (first) await db.insertInto('instance_settings').values({ key: 'bootstrap_admin', value: first.id, updated_at: new Date().toISOString() }).execute();

  await db.schema
    .createTable('invites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .addColumn('used_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('revoked_at', 'text')
    .execute();

  await db.schema
    .createTable('file_grants')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('file_grants_user_path_unique', ['user_id', 'path'])
    .execute();

  await db.schema
    .createTable('registration_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('client', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('registration_attempts_client_idx').on('registration_attempts').columns(['client', 'created_at']).execute();
  // The sweep deletes by age.
  await db.schema.createIndex('login_failures_created_idx').on('login_failures').column('created_at').execute();
  await db.schema.createIndex('registration_attempts_created_idx').on('registration_attempts').column('created_at').execute();
  await db.schema.createIndex('login_failures_email_ip_idx').on('login_failures').columns(['email', 'ip', 'created_at']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('login_failures_email_ip_idx').ifExists().execute();
  await db.schema.dropIndex('login_failures_created_idx').ifExists().execute();
  for (const table of ['registration_attempts', 'file_grants', 'invites', 'instance_settings']) await db.schema.dropTable(table).ifExists().execute();
  await db.schema.alterTable('users').dropColumn('disabled_at').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
