import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionsService } from '../src/connections/connections.service.js';
import { ApiClient } from './support/api-client.js';
import { TEST_PG_URL, sharedPath } from '@aigis/test-support/env';
import { connectionFields, createMysqlDatabase, createPgDatabase, loadMysqlChinook, loadPgChinook, type MysqlDatabase, type PgDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'Sup3r-s3cret-pässwörd';

describe('connections over HTTP', () => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let pgDb: PgDatabase;
  let myDb: MysqlDatabase;
  let blackhole: net.Server;
  const held: net.Socket[] = [];

  const pgUrl = () => {
    const url = new URL(TEST_PG_URL);
    url.pathname = `/${pgDb.name}`;
    url.password = encodeURIComponent(SECRET);
    return url.toString();
  };

  beforeAll(async () => {
    [pgDb, myDb] = await Promise.all([createPgDatabase('conn'), createMysqlDatabase('conn')]);
    await Promise.all([loadPgChinook(pgDb), loadMysqlChinook(myDb)]);
    const sqliteRoot = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'aigis-sqlroot-'));
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    // Accepts connections and never answers: the way an unreachable database looks behind a firewall.
    blackhole = net.createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => blackhole.listen(0, '127.0.0.1', resolve));
    app = await startTestApp({ SQLITE_ROOT: sqliteRoot, CONNECT_TIMEOUT_MS: '800', ROW_LIMIT: '50' });
    alice = new ApiClient(app.url);
    bob = new ApiClient(app.url);
    await alice.register();
    await bob.register();
  });

  afterAll(async () => {
    await app?.close();
    for (const socket of held) socket.destroy();
    blackhole?.close();
    await Promise.all([pgDb?.drop(), myDb?.drop()]);
  });

  function appDb(): Database.Database {
    return new Database(path.join(app.dataDir, 'aigis.sqlite'));
  }

  it('creates from a URL or from fields, seals the password and never returns it', async () => {
    const fromUrl = await alice.post('/api/connections', { name: 'Chinook PG', url: pgUrl() });
    expect(fromUrl.status).toBe(201);
    expect(fromUrl.body).toMatchObject({ name: 'Chinook PG', dialect: 'postgres', database: pgDb.name, has_password: true, is_demo: false });
    const fromFields = await alice.post('/api/connections', { name: 'Chinook MariaDB', ...connectionFields(myDb.target({ password: null })) });
    expect(fromFields.status).toBe(201);
    expect(fromFields.body.has_password).toBe(false);
    const list = await alice.get('/api/connections');
    expect(list.body.map((c: { name: string }) => c.name)).toEqual(['Chinook PG', 'Chinook MariaDB']);
    expect(JSON.stringify(list.body)).not.toContain(SECRET);

    const db = appDb();
    const row = db.prepare('SELECT sealed_password FROM connections WHERE id = ?').get(fromUrl.body.id) as { sealed_password: string };
    db.close();
    expect(row.sealed_password).toMatch(/^v1\.[0-9a-f]{12}\./);
    expect(row.sealed_password).not.toContain(SECRET);
    const me = (await alice.get('/api/auth/me')).body;
    const target = await app.app.get(ConnectionsService).target(me.id, fromUrl.body.id);
    expect(target.password).toBe(SECRET);
  });

  it('answers 400, not 500, for a URL with a malformed percent-escape (red-team finding)', async () => {
    const created = await alice.post('/api/connections', { name: 'ok', url: pgUrl() });
    for (const url of ['postgres://a:%zz@h/d', 'postgres://%zz@h/d', 'postgres://a@h/%zz', 'mysql://a:%E0%A4%A@h/d']) {
      const response = await alice.post('/api/connections', { name: 'x', url });
      expect(response.status, url).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      const patched = await alice.patch(`/api/connections/${created.body.id}`, { url });
      expect(patched.status, url).toBe(400);
    }
  });

  it('answers 404 for another user’s connection on every route', async () => {
    const [mine] = (await alice.get('/api/connections')).body;
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { name: 'stolen' }],
      ['DELETE', '', undefined],
      ['POST', '/test', {}],
      ['GET', '/schema', undefined],
      ['POST', '/query', { sql: 'SELECT 1' }],
    ] as const) {
      const response = await bob.request(method, `/api/connections/${mine.id}${suffix}`, body);
      expect(response.status, `${method} ${suffix}`).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
    expect((await bob.get('/api/connections/does-not-exist')).status).toBe(404);
    expect((await alice.get(`/api/connections/${mine.id}`)).body.name).toBe('Chinook PG');
  });

  it('tests a connection: version, latency, and whether the credential can write', async () => {
    const [pgConn, myConn] = (await alice.get('/api/connections')).body;
    const pgTest = await alice.post(`/api/connections/${pgConn.id}/test`);
    expect(pgTest.status).toBe(200);
    expect(pgTest.body.ok).toBe(true);
    expect(pgTest.body.server_version).toMatch(/PostgreSQL 1\d/);
    expect(pgTest.body.latency_ms).toBeGreaterThan(0);
    expect(pgTest.body.read_only_role).toBe(false);
    expect(pgTest.body.warnings.join(' ')).toMatch(/read-only/i);
    const myTest = await alice.post(`/api/connections/${myConn.id}/test`);
    expect(myTest.body.server_version).toMatch(/MariaDB|^\d+\.\d+/);
    expect(myTest.body.read_only_role).toBe(false);
  });

  it('fails fast and clearly on an unreachable host', async () => {
    const port = (blackhole.address() as net.AddressInfo).port;
    const created = await alice.post('/api/connections', { name: 'firewalled', url: `postgres://u@127.0.0.1:${port}/db` });
    const started = Date.now();
    const test = await alice.post(`/api/connections/${created.body.id}/test`);
    const elapsed = Date.now() - started;
    expect(test.status).toBe(422);
    expect(test.body.error.code).toBe('CONNECTION_FAILED');
    expect(test.body.error.message).toMatch(/127\.0\.0\.1/);
    expect(elapsed).toBeLessThan(5000);
    const refused = await alice.post('/api/connections', { name: 'closed port', url: 'mysql://u@127.0.0.1:1/db' });
    const closed = await alice.post(`/api/connections/${refused.body.id}/test`);
    expect(closed.body.error.code).toBe('CONNECTION_FAILED');
    await alice.delete(`/api/connections/${created.body.id}`);
    await alice.delete(`/api/connections/${refused.body.id}`);
  });

  it('refuses a tampered or transplanted sealed password with SECRET_UNREADABLE', async () => {
    const a = await alice.post('/api/connections', { name: 'a', url: pgUrl() });
    const b = await alice.post('/api/connections', { name: 'b', url: pgUrl() });
    const db = appDb();
    const sealedA = (db.prepare('SELECT sealed_password FROM connections WHERE id = ?').get(a.body.id) as { sealed_password: string }).sealed_password;
    db.prepare('UPDATE connections SET sealed_password = ? WHERE id = ?').run(sealedA, b.body.id);
    const parts = sealedA.split('.');
    parts[4] = `${parts[4].slice(0, -2)}${parts[4].endsWith('AA') ? 'BB' : 'AA'}`;
    db.prepare('UPDATE connections SET sealed_password = ? WHERE id = ?').run(parts.join('.'), a.body.id);
    db.close();
    for (const id of [a.body.id, b.body.id]) {
      for (const [method, suffix, body] of [['POST', '/test', {}], ['POST', '/query', { sql: 'SELECT 1' }], ['GET', '/schema', undefined]] as const) {
        const response = await alice.request(method, `/api/connections/${id}${suffix}`, body);
        expect(response.status).toBe(422);
        expect(response.body.error.code).toBe('SECRET_UNREADABLE');
        expect(response.body.error.message).toMatch(/Enter the password again/);
      }
    }
    // Entering the password again repairs it.
    await alice.patch(`/api/connections/${a.body.id}`, { password: SECRET });
    expect((await alice.post(`/api/connections/${a.body.id}/test`)).status).toBe(200);
    await alice.delete(`/api/connections/${a.body.id}`);
    await alice.delete(`/api/connections/${b.body.id}`);
  });

  it('patches fields, keeps or clears the password, and deletes', async () => {
    const created = await alice.post('/api/connections', { name: 'temp', url: pgUrl() });
    const renamed = await alice.patch(`/api/connections/${created.body.id}`, { name: 'renamed', port: 5432 });
    expect(renamed.body).toMatchObject({ name: 'renamed', has_password: true });
    const cleared = await alice.patch(`/api/connections/${created.body.id}`, { password: null });
    expect(cleared.body.has_password).toBe(false);
    const invalid = await alice.patch(`/api/connections/${created.body.id}`, { port: 'many' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toMatch(/port/);
    expect((await alice.delete(`/api/connections/${created.body.id}`)).status).toBe(204);
    expect((await alice.get(`/api/connections/${created.body.id}`)).status).toBe(404);
    expect((await alice.delete(`/api/connections/${created.body.id}`)).status).toBe(404);
  });

  it('explains bad connection input', async () => {
    const cases: [unknown, RegExp][] = [
      [{ name: 'x', url: 'oracle://a@b/c' }, /unsupported scheme/],
      [{ name: 'x', dialect: 'postgres', host: 'h', database: 'd' }, /user/],
      [{ name: 'x', dialect: 'sqlite', database: '../../etc/passwd' }, /"\.\." is not allowed/],
      [{ name: 'x', dialect: 'sqlite', database: '/etc/passwd' }, /SQLITE_ROOT/],
      [{ name: 'x', dialect: 'sqlite', database: path.join(app.dataDir, 'aigis.sqlite') }, /SQLITE_ROOT|own database/],
      [{ name: 'x', dialect: 'sqlite', database: 'missing.sqlite' }, /no SQLite file "missing.sqlite" that you may use/],
      [{ dialect: 'mongodb' }, /dialect|url/],
      [{ name: 'x', url: 'mysql://root@127.0.0.1/mysql' }, /system schema/],
      [{ name: 'x', url: 'sqlite:///demo.db?mode=ro' }, /url: a SQLite URL takes no options/],
      [{ name: 'x', url: 'sqlite:////etc/passwd' }, /SQLITE_ROOT/],
      [{ name: 'x', url: 'sqlite:///missing.sqlite' }, /no SQLite file "missing.sqlite" that you may use/],
      [{ name: 'x', url: 'postgres://u@h/d?ssl=yes' }, /url: ssl=yes is not understood/],
      [{ name: 'x', url: 'postgres://u@h/d?sslrootcert=/etc/ssl/key.pem' }, /url: sslrootcert is not supported/],
      [{ name: 'x', url: 'postgres://u%zz@h/d' }, /url: the user has a malformed percent-escape/],
      [[], /./],
    ];
    for (const [body, message] of cases) {
      const response = await alice.post('/api/connections', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      expect(response.body.error.message).toMatch(message);
    }
  });

  it('lists SQLite files under SQLITE_ROOT and connects to one', async () => {
    const files = await alice.get('/api/connections/sqlite-files');
    expect(files.body.files.map((f: { path: string }) => f.path)).toContain('chinook.sqlite');
    const created = await alice.post('/api/connections', { name: 'Chinook SQLite', dialect: 'sqlite', database: 'chinook.sqlite' });
    expect(created.status).toBe(201);
    const test = await alice.post(`/api/connections/${created.body.id}/test`);
    expect(test.body).toMatchObject({ ok: true, read_only_role: true });
    expect(test.body.server_version).toMatch(/SQLite 3\./);
  });

  it('reads sqlite:///file as a file under SQLITE_ROOT (as the web app does), and sqlite:////absolute as that path', async () => {
    const relative = await alice.post('/api/connections', { url: 'sqlite:///chinook.sqlite' });
    expect(relative.status, JSON.stringify(relative.body)).toBe(201);
    expect(relative.body).toMatchObject({ dialect: 'sqlite', database: 'chinook.sqlite', name: 'chinook.sqlite' });
    const root = fs.realpathSync(app.config.sqliteRoot);
    const absolute = await alice.post('/api/connections', { name: 'abs', url: `sqlite:///${path.join(root, 'chinook.sqlite')}` });
    expect(absolute.status, JSON.stringify(absolute.body)).toBe(201);
    expect(absolute.body.database).toBe('chinook.sqlite');
    for (const id of [relative.body.id, absolute.body.id]) expect((await alice.delete(`/api/connections/${id}`)).status).toBe(204);
  });

  it('turns TLS on for ?ssl=1 in a URL, as the web app does', async () => {
    const created = await alice.post('/api/connections', { name: 'tls', url: 'postgres://u@127.0.0.1:1/d?ssl=1' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ ssl: true, ssl_mode: 'require' });
    expect((await alice.delete(`/api/connections/${created.body.id}`)).status).toBe(204);
  });

  it('introspects with a cache, and refresh=true introspects again', async () => {
    const connections = (await alice.get('/api/connections')).body;
    for (const connection of connections) {
      const first = await alice.get(`/api/connections/${connection.id}/schema`);
      expect(first.status).toBe(200);
      const names = first.body.tables.map((t: { name: string }) => t.name.toLowerCase());
      expect(names).toEqual(expect.arrayContaining(['album', 'artist', 'invoice', 'track']));
      expect(first.body.tables.filter((t: { kind: string }) => t.kind === 'table')).toHaveLength(11);
      expect(first.body.markdown).toMatch(/album/i);
      const again = await alice.get(`/api/connections/${connection.id}/schema`);
      expect(again.body.introspected_at).toBe(first.body.introspected_at);
      const refreshed = await alice.get(`/api/connections/${connection.id}/schema?refresh=true`);
      expect(refreshed.body.introspected_at).not.toBe(first.body.introspected_at);
    }
  });

  it('runs read-only queries, refuses writes with the reason, reports database errors, and audits everything', async () => {
    const [pgConn] = (await alice.get('/api/connections')).body;
    const ok = await alice.post(`/api/connections/${pgConn.id}/query`, { sql: 'SELECT name FROM artist ORDER BY artist_id;' });
    expect(ok.status).toBe(200);
    expect(ok.body.row_count).toBe(50);
    expect(ok.body.truncated).toBe(true);
    expect(ok.body.rows[0]).toEqual({ name: 'AC/DC' });
    const limited = await alice.post(`/api/connections/${pgConn.id}/query`, { sql: 'SELECT artist_id FROM artist', limit: 500 });
    expect(limited.body).toMatchObject({ row_count: 275, truncated: false });

    const rejected = await alice.post(`/api/connections/${pgConn.id}/query`, { sql: 'SELECT 1; DELETE FROM track' });
    expect(rejected.status).toBe(400);
    expect(rejected.body.error.code).toBe('SQL_REJECTED');
    expect(rejected.body.error.message).toMatch(/statement 2 of 2 is DELETE/);

    const failed = await alice.post(`/api/connections/${pgConn.id}/query`, { sql: 'SELECT nme FROM artist' });
    expect(failed.status).toBe(422);
    expect(failed.body.error.code).toBe('QUERY_FAILED');
    expect(failed.body.error.message).toMatch(/column "nme" does not exist/);
    expect(failed.body.error.details.class).toBe('column_not_found');

    expect((await alice.post(`/api/connections/${pgConn.id}/query`, { sql: '' })).status).toBe(400);
    expect((await pgDb.query<{ n: string }>('SELECT count(*) AS n FROM track'))[0].n).toBe('3503');

    const db = appDb();
    const audit = db.prepare('SELECT status, sql, row_count, error_code FROM query_audit WHERE connection_id = ? ORDER BY created_at').all(pgConn.id) as {
      status: string;
      sql: string;
      row_count: number | null;
      error_code: string | null;
    }[];
    db.close();
    expect(audit.map((a) => a.status)).toEqual(expect.arrayContaining(['ok', 'rejected', 'failed']));
    expect(audit.find((a) => a.status === 'rejected')).toMatchObject({ sql: 'SELECT 1; DELETE FROM track', error_code: 'SQL_REJECTED' });
    expect(audit.find((a) => a.sql.startsWith('SELECT name FROM artist'))?.row_count).toBe(50);
  });
});
