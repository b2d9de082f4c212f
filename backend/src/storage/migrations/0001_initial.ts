import type { Kysely } from 'kysely';

// Dialect-neutral on purpose: the same migration runs on SQLite (embedded) and PostgreSQL (server mode).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  await db.schema.createIndex('auth_tokens_user_idx').on('auth_tokens').column('user_id').execute();

  await db.schema
    .createTable('login_failures')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_failures_email_idx').on('login_failures').columns(['email', 'created_at']).execute();
  await db.schema.createIndex('login_failures_ip_idx').on('login_failures').columns(['ip', 'created_at']).execute();

  await db.schema
    .createTable('connections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('dialect', 'text', (c) => c.notNull())
    .addColumn('host', 'text')
    .addColumn('port', 'integer')
    .addColumn('database', 'text')
    .addColumn('username', 'text')
    .addColumn('ssl', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sealed_password', 'text')
    .addColumn('is_demo', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('connections_user_idx').on('connections').column('user_id').execute();

  await db.schema
    .createTable('threads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('model_name', 'text')
    // A deleted connection leaves its threads readable, just unconnected.
    .addColumn('connection_id', 'text', (c) => c.references('connections.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('threads_user_updated_idx').on('threads').columns(['user_id', 'updated_at']).execute();

  await db.schema
    .createTable('query_audit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // No foreign keys: the audit trail outlives the connections and threads it mentions.
    .addColumn('connection_id', 'text', (c) => c.notNull())
    .addColumn('thread_id', 'text')
    .addColumn('model_name', 'text')
    .addColumn('sql', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('row_count', 'integer')
    .addColumn('elapsed_ms', 'integer', (c) => c.notNull())
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('query_audit_user_idx').on('query_audit').columns(['user_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['query_audit', 'threads', 'connections', 'login_failures', 'auth_tokens', 'users']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
