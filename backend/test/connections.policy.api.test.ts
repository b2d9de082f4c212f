import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { TEST_PG_URL, sharedPath } from '@aigis/test-support/env';
import { connectionFields, createMysqlDatabase, createPgDatabase, loadMysqlChinook, loadPgChinook, type MysqlDatabase, type PgDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * A connection's table policy, row limit and statement timeout through the API, on Chinook in real
 * PostgreSQL, MariaDB and SQLite: stored, returned, validated, and enforced on the query path.
 */
describe('connection policy over HTTP', () => {
  let app: TestApp;
  let alice: ApiClient;
  let pgDb: PgDatabase;
  let myDb: MysqlDatabase;

  beforeAll(async () => {
    [pgDb, myDb] = await Promise.all([createPgDatabase('policy'), createMysqlDatabase('policy')]);
    await Promise.all([loadPgChinook(pgDb), loadMysqlChinook(myDb)]);
    const sqliteRoot = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'aigis-policy-'));
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    app = await startTestApp({ SQLITE_ROOT: sqliteRoot, ROW_LIMIT: '50', ROW_LIMIT_MAX: '100', STATEMENT_TIMEOUT_MS: '20000', STATEMENT_TIMEOUT_MAX_MS: '60000' });
    alice = new ApiClient(app.url);
    await alice.register();
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([pgDb?.drop(), myDb?.drop()]);
  });

  const pgUrl = () => {
    const url = new URL(TEST_PG_URL);
    url.pathname = `/${pgDb.name}`;
    return url.toString();
  };

  async function query(id: string, sql: string, limit?: number) {
    return alice.post(`/api/connections/${id}/query`, { sql, ...(limit ? { limit } : {}) });
  }

  it('PostgreSQL: excluded tables are refused by name, in every form; the rest runs', async () => {
    const created = await alice.post('/api/connections', { name: 'pg', url: pgUrl(), excluded_tables: ['employee', 'public.customer'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ excluded_tables: ['employee', 'public.customer'], allowed_tables: [], row_limit: null, statement_timeout_ms: null });
    const id = created.body.id as string;
    expect((await alice.get(`/api/connections/${id}`)).body.excluded_tables).toEqual(['employee', 'public.customer']);

    for (const sql of [
      'SELECT * FROM employee',
      'SELECT * FROM public."employee"',
      'SELECT t.name FROM track t WHERE t.track_id IN (SELECT 1 FROM customer)',
      'WITH c AS (SELECT * FROM customer) SELECT count(*) FROM c',
      'SELECT column_name FROM information_schema.columns WHERE table_name = \'employee\'',
    ]) {
      const refused = await query(id, sql);
      expect(refused.status, sql).toBe(400);
      expect(refused.body.error.code).toBe('SQL_REJECTED');
      expect(refused.body.error.message, sql).toMatch(/employee|customer|system catalog/);
    }
    // Introspection: the schema browser, its markdown (the prompt's schema) and FKs never show an excluded table.
    const schema = await alice.get(`/api/connections/${id}/schema`);
    expect(schema.status).toBe(200);
    const names = schema.body.tables.map((t: { name: string }) => t.name);
    expect(names).toContain('invoice');
    expect(names).not.toContain('employee');
    expect(names).not.toContain('customer');
    const referenced = schema.body.tables.flatMap((t: { foreign_keys: { referenced_table: string }[] }) => t.foreign_keys.map((fk) => fk.referenced_table));
    expect(referenced).toContain('track');
    expect(referenced).not.toContain('customer');
    expect(referenced).not.toContain('employee');
    expect(schema.body.markdown).not.toMatch(/## (employee|customer)\b|→ (employee|customer)\./);

    const ok = await query(id, 'SELECT count(*) AS n FROM track');
    expect(ok.status).toBe(200);
    expect(ok.body.rows).toEqual([{ n: 3503 }]);
  });

  it('MariaDB: an allowlist lets only its tables through, the connection database being the default schema', async () => {
    const created = await alice.post('/api/connections', { name: 'maria', ...connectionFields(myDb.target()), allowed_tables: ['Track', 'Album', 'Album'] });
    expect(created.status).toBe(201);
    expect(created.body.allowed_tables).toEqual(['Track', 'Album']);
    const id = created.body.id as string;
    expect((await query(id, 'SELECT count(*) FROM Track JOIN Album ON Album.AlbumId = Track.AlbumId')).status).toBe(200);
    expect((await query(id, `SELECT count(*) FROM \`${myDb.name}\`.Track`)).status).toBe(200);
    const artist = await query(id, 'SELECT * FROM Album JOIN Artist ON Artist.ArtistId = Album.ArtistId');
    expect(artist.status).toBe(400);
    expect(artist.body.error.message).toContain("table Artist is not among this connection's allowed tables");
    expect((await query(id, 'SELECT * FROM mysql.user')).status).toBe(400);
    // PATCH to no policy: everything the guard allows runs again.
    const listed = await alice.get(`/api/connections/${id}/schema`);
    expect(listed.body.tables.map((t: { name: string }) => t.name).sort()).toEqual(['Album', 'Track']);
    const cleared = await alice.patch(`/api/connections/${id}`, { allowed_tables: [] });
    expect(cleared.body.allowed_tables).toEqual([]);
    // The change takes effect at once: the cached schema is dropped with the old policy.
    expect((await alice.get(`/api/connections/${id}/schema`)).body.tables.length).toBe(11);
    expect((await query(id, 'SELECT count(*) FROM Artist')).status).toBe(200);
  });

  it('SQLite: the connection row limit caps every query, and its statement timeout stops a long one', async () => {
    const created = await alice.post('/api/connections', { name: 'lite', dialect: 'sqlite', database: 'chinook.sqlite', row_limit: 7, statement_timeout_ms: 300 });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ row_limit: 7, statement_timeout_ms: 300 });
    const id = created.body.id as string;
    const capped = await query(id, 'SELECT TrackId FROM Track');
    expect(capped.body).toMatchObject({ row_count: 7, truncated: true });
    // A request may ask for fewer, never for more.
    expect((await query(id, 'SELECT TrackId FROM Track', 3)).body.row_count).toBe(3);
    expect((await query(id, 'SELECT TrackId FROM Track', 90)).body.row_count).toBe(7);
    const slow = await query(id, 'WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT max(n) FROM c');
    expect(slow.status).toBe(422);
    expect(slow.body.error.code).toBe('QUERY_TIMEOUT');

    const back = await alice.patch(`/api/connections/${id}`, { row_limit: null, statement_timeout_ms: null });
    expect(back.body).toMatchObject({ row_limit: null, statement_timeout_ms: null });
    expect((await query(id, 'SELECT TrackId FROM Track')).body.row_count).toBe(50);
  });

  it('refuses bad entries and limits beyond the instance maxima with a 400 that says why', async () => {
    const base = { name: 'bad', dialect: 'sqlite', database: 'chinook.sqlite' };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ excluded_tables: ['a.b.c'] }, /not a table/],
      [{ allowed_tables: ['*'] }, /schema\.\*/],
      [{ allowed_tables: 'Track' }, /allowed_tables|give either/],
      [{ excluded_tables: ['x'.repeat(400)] }, /at most 300/],
      [{ row_limit: 101 }, /row_limit: must be at most 100/],
      [{ row_limit: 0 }, /row_limit/],
      [{ row_limit: 2.5 }, /whole number|give either/],
      [{ statement_timeout_ms: 60_001 }, /statement_timeout_ms: must be at most 60000/],
      [{ statement_timeout_ms: 5 }, /at least 100/],
    ];
    for (const [extra, message] of cases) {
      const response = await alice.post('/api/connections', { ...base, ...extra });
      expect(response.status, JSON.stringify(extra)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      expect(JSON.stringify(response.body.error), JSON.stringify(extra)).toMatch(message);
    }
    const created = await alice.post('/api/connections', base);
    const patched = await alice.patch(`/api/connections/${created.body.id}`, { row_limit: 1000 });
    expect(patched.status).toBe(400);
  });
});
