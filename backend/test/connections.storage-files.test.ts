import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Embedded mode with SQLITE_ROOT = DATA_DIR (the worst an operator could choose): the app's own files stay out of reach. */
describe('embedded storage files are never a connection', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-ownfiles-'));
  let app: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ DATA_DIR: dataDir, SQLITE_ROOT: dataDir });
    api = new ApiClient(app.url);
    await api.register();
    fs.mkdirSync(path.join(dataDir, 'sub'));
    fs.symlinkSync(path.join(dataDir, 'checkpoints.sqlite'), path.join(dataDir, 'sub', 'link.sqlite'));
    fs.linkSync(path.join(dataDir, 'aigis.sqlite'), path.join(dataDir, 'sub', 'hard.sqlite'));
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses the storage, the checkpoints, the key and their WAL files, under any path', async () => {
    const files = fs.readdirSync(dataDir).filter((f) => /^(aigis|checkpoints)\.sqlite|^master\.key/.test(f));
    expect(files).toEqual(expect.arrayContaining(['aigis.sqlite', 'checkpoints.sqlite', 'master.key']));
    for (const database of [...files, path.join(dataDir, 'aigis.sqlite'), './checkpoints.sqlite', 'sub/link.sqlite', 'sub/hard.sqlite', 'sub/../master.key']) {
      const response = await api.post('/api/connections', { name: 'x', dialect: 'sqlite', database });
      expect(response.status, database).toBe(400);
      // One message for the app's own files, missing files and files this user may not use (no oracle).
      expect(response.body.error.message).toMatch(/^database: no SQLite file ".*" that you may use under SQLITE_ROOT$|"\.\." is not allowed/);
    }
    // The control: the first account is the admin, who may use any other file under the same root.
    new Database(path.join(dataDir, 'plain.sqlite')).exec('CREATE TABLE t (x)').close();
    expect((await api.post('/api/connections', { name: 'plain', dialect: 'sqlite', database: 'plain.sqlite' })).status).toBe(201);
    const listed = (await api.get('/api/connections/sqlite-files')).body.files.map((f: { path: string }) => f.path);
    expect(listed.filter((p: string) => /^(aigis|checkpoints)\.sqlite|master\.key|^sub\//.test(p))).toEqual([]);
  });

  it('refuses MySQL verify-full on an address (mysql2 would check the certificate against "localhost")', async () => {
    const response = await api.post('/api/connections', { url: 'mysql://u@10.1.2.3/db?ssl-mode=VERIFY_IDENTITY' });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/^ssl_mode: verify-full on MySQL needs the host name/);
    expect((await api.post('/api/connections', { url: 'mysql://u@db.example.com/db?ssl-mode=VERIFY_IDENTITY' })).body.ssl_mode).toBe('verify-full');
  });
});
