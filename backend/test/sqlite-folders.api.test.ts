import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { sharedPath } from '@aigis/test-support/env';
import { startTestApp, type TestApp } from './support/test-app.js';

const CHINOOK = sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite');
const paths = (body: { files: { path: string }[] }) => body.files.map((f) => f.path).sort();

/** Members connect only to their own folder, granted paths and the demo store; admins to anything under the root. */
describe('SQLite files per user', () => {
  let app: TestApp;
  let sqliteRoot: string;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: string;
  let bobId: string;

  beforeAll(async () => {
    sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-folders-'));
    app = await startTestApp({ SQLITE_ROOT: sqliteRoot, DEMO_DATABASE: 'true' });
    admin = new ApiClient(app.url);
    alice = new ApiClient(app.url);
    bob = new ApiClient(app.url);
    expect((await admin.register()).role).toBe('admin');
    aliceId = (await alice.register()).id;
    bobId = (await bob.register()).id;
    fs.copyFileSync(CHINOOK, path.join(sqliteRoot, 'shared.sqlite'));
    for (const id of [aliceId, bobId]) fs.mkdirSync(path.join(sqliteRoot, id));
    fs.copyFileSync(CHINOOK, path.join(sqliteRoot, aliceId, 'mine.sqlite'));
    fs.copyFileSync(CHINOOK, path.join(sqliteRoot, bobId, 'private.sqlite'));
    // A link in Alice's folder to Bob's file must not open Bob's file.
    fs.symlinkSync(path.join(sqliteRoot, bobId, 'private.sqlite'), path.join(sqliteRoot, aliceId, 'link.sqlite'));
  }, 180_000);

  afterAll(async () => {
    await app?.close();
    fs.rmSync(sqliteRoot, { recursive: true, force: true });
  });

  const connect = (client: ApiClient, database: string) => client.post('/api/connections', { name: database, dialect: 'sqlite', database });

  it('lets a member use their own folder and the demo store, and nothing else; missing and forbidden look the same', async () => {
    expect((await connect(alice, `${aliceId}/mine.sqlite`)).status).toBe(201);
    const demo = (await alice.get('/api/connections')).body.find((c: { is_demo: boolean }) => c.is_demo);
    expect(demo).toMatchObject({ dialect: 'sqlite', is_demo: true, id: expect.any(String) });
    expect((await alice.post(`/api/connections/${demo.id}/query`, { sql: 'SELECT COUNT(*) AS n FROM customers' })).status).toBe(200);

    const messages: string[] = [];
    for (const requested of [`${bobId}/private.sqlite`, 'shared.sqlite', `${aliceId}/link.sqlite`, `${aliceId}/missing.sqlite`, `${bobId}/missing.sqlite`, path.join(sqliteRoot, bobId, 'private.sqlite')]) {
      const response = await connect(alice, requested);
      expect(response.status, requested).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
      messages.push(response.body.error.message.replace(requested, '<path>'));
    }
    expect(new Set(messages).size).toBe(1);
  });

  it('lists only the files a member may use', async () => {
    const listed = await alice.get('/api/connections/sqlite-files');
    expect(listed.body.folder).toBe(`${aliceId}/`);
    expect(paths(listed.body)).toEqual([`${aliceId}/mine.sqlite`, 'demo_store.sqlite'].sort());
    expect(paths((await bob.get('/api/connections/sqlite-files')).body)).toEqual([`${bobId}/private.sqlite`, 'demo_store.sqlite'].sort());
    // The admin sees everything under the root (the link resolves to Bob's file, listed under its own name).
    expect(paths((await admin.get('/api/connections/sqlite-files')).body)).toEqual(
      expect.arrayContaining([`${aliceId}/mine.sqlite`, `${bobId}/private.sqlite`, 'shared.sqlite', 'demo_store.sqlite']),
    );
    expect((await connect(admin, `${bobId}/private.sqlite`)).status).toBe(201);
  });

  it('an admin grants a file to a member, and revoking the grant stops the connection at its next use', async () => {
    const granted = await admin.post('/api/admin/sqlite-grants', { user_id: aliceId, path: 'shared.sqlite' });
    expect(granted.status).toBe(201);
    expect(granted.body).toMatchObject({ user_id: aliceId, path: 'shared.sqlite' });
    expect(paths((await alice.get('/api/connections/sqlite-files')).body)).toContain('shared.sqlite');
    expect(paths((await bob.get('/api/connections/sqlite-files')).body)).not.toContain('shared.sqlite');
    const connection = await connect(alice, 'shared.sqlite');
    expect(connection.status).toBe(201);
    expect((await alice.post(`/api/connections/${connection.body.id}/query`, { sql: 'SELECT COUNT(*) AS n FROM Artist' })).body.rows).toEqual([{ n: 275 }]);
    expect((await connect(bob, 'shared.sqlite')).status).toBe(400);

    expect((await admin.get('/api/admin/sqlite-grants')).body.map((g: { path: string }) => g.path)).toEqual(['shared.sqlite']);
    expect((await admin.post('/api/admin/sqlite-grants', { user_id: aliceId, path: 'shared.sqlite' })).status).toBe(409);
    for (const bad of ['../etc', '/etc/passwd', 'nothing.sqlite']) {
      expect((await admin.post('/api/admin/sqlite-grants', { user_id: aliceId, path: bad })).status, bad).toBe(400);
    }
    expect((await admin.post('/api/admin/sqlite-grants', { user_id: 'nobody', path: 'shared.sqlite' })).status).toBe(404);
    expect((await alice.post('/api/admin/sqlite-grants', { user_id: aliceId, path: `${bobId}/private.sqlite` })).status).toBe(403);

    expect((await admin.delete(`/api/admin/sqlite-grants/${granted.body.id}`)).status).toBe(204);
    const after = await alice.post(`/api/connections/${connection.body.id}/query`, { sql: 'SELECT 1' });
    expect(after.status).toBe(400);
    expect(after.body.error.message).toMatch(/no SQLite file .* that you may use/);
  });

  it('grants a folder: everything inside it becomes usable', async () => {
    fs.mkdirSync(path.join(sqliteRoot, 'team'));
    fs.copyFileSync(CHINOOK, path.join(sqliteRoot, 'team', 'sales.db'));
    expect((await connect(bob, 'team/sales.db')).status).toBe(400);
    expect((await admin.post('/api/admin/sqlite-grants', { user_id: bobId, path: 'team' })).status).toBe(201);
    expect((await connect(bob, 'team/sales.db')).status).toBe(201);
    expect(paths((await bob.get('/api/connections/sqlite-files')).body)).toContain('team/sales.db');
  });
});
