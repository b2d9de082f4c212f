import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_MYSQL_URL, TEST_PG_URL } from '@aigis/test-support/env';
import { ApiClient } from './support/api-client.js';
import { createMysqlDatabase, createPgDatabase, type MysqlDatabase, type PgDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Red-team finding: an excluded table was readable through a view over it. `secrets` excluded, `secrets_view`
 * (SELECT * FROM secrets) answered its rows to a query, and introspection sampled it, so the excluded table's
 * rows reached the schema browser and every prompt. Real PostgreSQL, MariaDB and SQLite.
 */
describe('table policy: views over excluded tables', () => {
  let app: TestApp;
  let owner: ApiClient;
  let pgDb: PgDatabase;
  let myDb: MysqlDatabase;
  let sqliteRoot: string;
  const SECRET = 'TOPSECRET-ROW';

  beforeAll(async () => {
    [pgDb, myDb] = await Promise.all([createPgDatabase('policy_views'), createMysqlDatabase('policy_views')]);
    for (const sql of [
      'CREATE TABLE customers (id int PRIMARY KEY, name text)',
      "INSERT INTO customers VALUES (1, 'alice')",
      'CREATE TABLE secrets (id int PRIMARY KEY, token text)',
      `INSERT INTO secrets VALUES (1, '${SECRET}')`,
      'CREATE VIEW secrets_view AS SELECT * FROM secrets',
      // A view over a view over the excluded table, and one that never touches it.
      'CREATE VIEW secrets_again AS SELECT token FROM secrets_view',
      'CREATE VIEW customer_names AS SELECT name FROM customers',
    ]) {
      await pgDb.query(sql);
      await myDb.query(sql);
    }
    await pgDb.query('CREATE MATERIALIZED VIEW secrets_copy AS SELECT * FROM secrets');
    // A SQL function hides the table from the view's own dependencies: the view is refused for the function.
    await pgDb.query('CREATE FUNCTION first_token() RETURNS text LANGUAGE sql AS $$ SELECT token FROM secrets LIMIT 1 $$');
    await pgDb.query('CREATE VIEW secrets_by_function AS SELECT first_token() AS token');

    sqliteRoot = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'aigis-policy-views-'));
    const file = new Database(path.join(sqliteRoot, 'views.sqlite'));
    file.exec(`CREATE TABLE customers (id integer PRIMARY KEY, name text); INSERT INTO customers VALUES (1, 'alice');
      CREATE TABLE secrets (id integer PRIMARY KEY, token text); INSERT INTO secrets VALUES (1, '${SECRET}');
      CREATE VIEW secrets_view AS SELECT * FROM secrets;
      CREATE VIEW "secrets again" (t) AS SELECT token FROM secrets_view;
      CREATE VIEW customer_names AS SELECT name FROM customers;`);
    file.close();

    app = await startTestApp({ SQLITE_ROOT: sqliteRoot });
    owner = new ApiClient(app.url);
    await owner.register();
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([pgDb?.drop(), myDb?.drop()]);
    if (sqliteRoot) fs.rmSync(sqliteRoot, { recursive: true, force: true });
  });

  const urlOf = (base: string, database: string) => {
    const url = new URL(base);
    url.pathname = `/${database}`;
    return url.toString();
  };

  async function connect(name: string, body: Record<string, unknown>): Promise<string> {
    const created = await owner.post('/api/connections', { name, ...body, excluded_tables: ['secrets'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  }

  async function expectViewsHidden(id: string, hidden: string[], visible: string[]) {
    for (const view of hidden) {
      const refused = await owner.post(`/api/connections/${id}/query`, { sql: `SELECT * FROM ${view}` });
      expect(refused.status, `${view}: ${JSON.stringify(refused.body)}`).toBe(400);
      expect(refused.body.error.code).toBe('SQL_REJECTED');
      expect(refused.body.error.message).toMatch(/excluded on this connection/);
      expect(JSON.stringify(refused.body)).not.toContain(SECRET);
    }
    for (const view of visible) {
      const ok = await owner.post(`/api/connections/${id}/query`, { sql: `SELECT * FROM ${view}` });
      expect(ok.status, `${view}: ${JSON.stringify(ok.body)}`).toBe(200);
      expect(ok.body.rows).toEqual([{ name: 'alice' }]);
    }
    // Introspection neither lists nor samples them: the excluded rows reach no schema browser and no prompt.
    const schema = await owner.get(`/api/connections/${id}/schema?refresh=true`);
    expect(schema.status).toBe(200);
    expect(JSON.stringify(schema.body)).not.toContain(SECRET);
    const names = schema.body.tables.map((t: { name: string }) => t.name);
    for (const view of hidden) expect(names).not.toContain(view.replace(/"/g, ''));
    for (const view of visible) expect(names).toContain(view);
  }

  it('PostgreSQL: views, materialized views and views calling a function over an excluded table are excluded too', async () => {
    const id = await connect('pg', { url: urlOf(TEST_PG_URL, pgDb.name) });
    await expectViewsHidden(id, ['secrets_view', 'public.secrets_view', 'secrets_again', 'secrets_copy', 'secrets_by_function'], ['customer_names']);
  });

  it('MariaDB: views over an excluded table are excluded too, qualified or not', async () => {
    const id = await connect('mysql', { url: urlOf(TEST_MYSQL_URL, myDb.name) });
    await expectViewsHidden(id, ['secrets_view', `\`${myDb.name}\`.secrets_view`, 'secrets_again'], ['customer_names']);
  });

  it('SQLite: views over an excluded table are excluded too, quoted names included', async () => {
    const id = await connect('sqlite', { dialect: 'sqlite', database: 'views.sqlite' });
    await expectViewsHidden(id, ['secrets_view', 'main.secrets_view', '"secrets again"'], ['customer_names']);
  });

  it('a view that becomes clean when the exclusion is lifted is readable again', async () => {
    const id = await connect('pg again', { url: urlOf(TEST_PG_URL, pgDb.name) });
    expect((await owner.post(`/api/connections/${id}/query`, { sql: 'SELECT token FROM secrets_view' })).status).toBe(400);
    expect((await owner.patch(`/api/connections/${id}`, { excluded_tables: ['customers'] })).status).toBe(200);
    const now = await owner.post(`/api/connections/${id}/query`, { sql: 'SELECT token FROM secrets_view' });
    expect(now.status).toBe(200);
    expect(now.body.rows).toEqual([{ token: SECRET }]);
    expect((await owner.post(`/api/connections/${id}/query`, { sql: 'SELECT * FROM customer_names' })).status).toBe(400);
  });
});
