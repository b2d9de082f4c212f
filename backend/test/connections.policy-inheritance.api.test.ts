import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { ApiClient } from './support/api-client.js';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Red-team finding: on PostgreSQL an excluded partition or inheritance child was readable through its parent.
 * `events_secret` (a partition of `events`) and `child_secret` (INHERITS parent_t) excluded, `SELECT * FROM events`
 * and `SELECT * FROM parent_t` answered their rows, and introspection sampled them into the schema and every prompt.
 * Real PostgreSQL. (MariaDB partitions are no tables of their own; SQLite has no inheritance.)
 */
describe('table policy: partitions and inheritance children read through their parent', () => {
  let app: TestApp;
  let owner: ApiClient;
  let pgDb: PgDatabase;
  const SECRET = 'TOPSECRET-ROW';

  beforeAll(async () => {
    pgDb = await createPgDatabase('policy_inherit');
    for (const sql of [
      'CREATE TABLE customers (id int PRIMARY KEY, name text)',
      "INSERT INTO customers VALUES (1, 'alice')",
      'CREATE TABLE events (id int, kind text, payload text) PARTITION BY LIST (kind)',
      "CREATE TABLE events_public PARTITION OF events FOR VALUES IN ('public')",
      "CREATE TABLE events_secret PARTITION OF events FOR VALUES IN ('secret')",
      `INSERT INTO events VALUES (1, 'public', 'open'), (2, 'secret', '${SECRET}')`,
      // A partition of a partition: the grandparent and the middle one both read it.
      'CREATE TABLE logs (id int, kind text, msg text) PARTITION BY LIST (kind)',
      "CREATE TABLE logs_mid PARTITION OF logs FOR VALUES IN ('a', 'secret') PARTITION BY LIST (kind)",
      "CREATE TABLE logs_a PARTITION OF logs_mid FOR VALUES IN ('a')",
      "CREATE TABLE logs_secret PARTITION OF logs_mid FOR VALUES IN ('secret')",
      `INSERT INTO logs VALUES (1, 'a', 'hello'), (2, 'secret', '${SECRET}')`,
      // Plain inheritance.
      'CREATE TABLE parent_t (id int, v text)',
      "INSERT INTO parent_t VALUES (1, 'parent row')",
      'CREATE TABLE child_secret (extra text) INHERITS (parent_t)',
      `INSERT INTO child_secret VALUES (2, '${SECRET}', 'x')`,
      // A view over a parent that reads an excluded child is excluded too.
      'CREATE VIEW events_view AS SELECT * FROM events',
    ]) {
      await pgDb.query(sql);
    }
    app = await startTestApp();
    owner = new ApiClient(app.url);
    await owner.register();
  });

  afterAll(async () => {
    await app?.close();
    await pgDb?.drop();
  });

  const url = () => {
    const parsed = new URL(TEST_PG_URL);
    parsed.pathname = `/${pgDb.name}`;
    return parsed.toString();
  };

  async function connect(name: string, policy: Record<string, string[]>): Promise<string> {
    const created = await owner.post('/api/connections', { name, url: url(), ...policy });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as string;
  }

  async function expectRefused(id: string, sql: string, names: RegExp) {
    const refused = await owner.post(`/api/connections/${id}/query`, { sql });
    expect(refused.status, `${sql}: ${JSON.stringify(refused.body)}`).toBe(400);
    expect(refused.body.error.code).toBe('SQL_REJECTED');
    expect(refused.body.error.message).toMatch(names);
    expect(JSON.stringify(refused.body)).not.toContain(SECRET);
  }

  async function expectRows(id: string, sql: string, rows: unknown[]) {
    const ok = await owner.post(`/api/connections/${id}/query`, { sql });
    expect(ok.status, `${sql}: ${JSON.stringify(ok.body)}`).toBe(200);
    expect(ok.body.rows).toEqual(rows);
  }

  async function schemaNames(id: string): Promise<string[]> {
    const schema = await owner.get(`/api/connections/${id}/schema?refresh=true`);
    expect(schema.status).toBe(200);
    expect(JSON.stringify(schema.body)).not.toContain(SECRET);
    return schema.body.tables.map((t: { name: string }) => t.name);
  }

  it('exclusions: a parent of an excluded partition or child is refused, named for it, and hidden from the schema', async () => {
    const id = await connect('excluded', { excluded_tables: ['events_secret', 'logs_secret', 'child_secret'] });
    await expectRefused(id, 'SELECT * FROM events', /table events is excluded on this connection.*events_secret/);
    await expectRefused(id, 'SELECT * FROM public.events', /excluded on this connection.*events_secret/);
    await expectRefused(id, 'SELECT * FROM logs', /table logs is excluded on this connection.*logs_secret/);
    await expectRefused(id, 'SELECT * FROM logs_mid', /table logs_mid is excluded on this connection.*logs_secret/);
    await expectRefused(id, 'SELECT * FROM parent_t', /table parent_t is excluded on this connection.*child_secret/);
    // ONLY would be safe, but the parent is refused whole (the safe default).
    await expectRefused(id, 'SELECT * FROM ONLY parent_t', /table parent_t is excluded on this connection/);
    await expectRefused(id, 'SELECT * FROM events_view', /excluded on this connection/);
    // The allowed partitions stay readable on their own.
    await expectRows(id, 'SELECT id, kind FROM events_public', [{ id: 1, kind: 'public' }]);
    await expectRows(id, 'SELECT id, msg FROM logs_a', [{ id: 1, msg: 'hello' }]);
    await expectRows(id, 'SELECT * FROM customers', [{ id: 1, name: 'alice' }]);

    const names = await schemaNames(id);
    for (const hidden of ['events', 'logs', 'logs_mid', 'parent_t', 'events_view', 'events_secret', 'logs_secret', 'child_secret']) {
      expect(names).not.toContain(hidden);
    }
    // Partitions are never listed (their parent answers for them, see postgres.catalog.ts); with the parent hidden the
    // allowed partitions stay queryable by name, as above, but are not offered in the schema.
    expect(names).toContain('customers');
  });

  it('allowlist: a listed parent whose partition or child is not listed is refused, named for it', async () => {
    const id = await connect('allowlist', { allowed_tables: ['events', 'events_public', 'parent_t', 'logs', 'logs_mid', 'logs_a', 'customers'] });
    await expectRefused(id, 'SELECT * FROM events', /table events is excluded on this connection.*events_secret.*not among/);
    await expectRefused(id, 'SELECT * FROM logs', /table logs is excluded on this connection.*logs_secret/);
    await expectRefused(id, 'SELECT * FROM parent_t', /table parent_t is excluded on this connection.*child_secret/);
    await expectRows(id, 'SELECT id, kind FROM events_public', [{ id: 1, kind: 'public' }]);
    const names = await schemaNames(id);
    for (const hidden of ['events', 'logs', 'logs_mid', 'parent_t']) expect(names).not.toContain(hidden);
    // Partitions are never listed (their parent answers for them, see postgres.catalog.ts); with the parent hidden the
    // allowed partitions stay queryable by name, as above, but are not offered in the schema.
    expect(names).toContain('customers');

    // Every partition listed: the parent is readable whole.
    expect((await owner.patch(`/api/connections/${id}`, { allowed_tables: ['events', 'events_public', 'events_secret'] })).status).toBe(200);
    await expectRows(id, 'SELECT id, kind FROM events ORDER BY id', [{ id: 1, kind: 'public' }, { id: 2, kind: 'secret' }]);
  });
});
