import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** Storage, checkpoints and the key are readable by the app's own user only, whatever the umask. */
describe('files the app writes', () => {
  let app: TestApp | undefined;
  let previousUmask: number | undefined;
  afterEach(async () => {
    if (previousUmask !== undefined) process.umask(previousUmask);
    previousUmask = undefined;
    await app?.close();
    app = undefined;
  });

  it('creates DATA_DIR 0700 and the storage, checkpoints, their -wal/-shm and the key 0600, even with umask 000', async () => {
    previousUmask = process.umask(0);
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-modes-'));
    const dataDir = path.join(parent, 'data');
    app = await startTestApp({ DATA_DIR: dataDir });
    try {
      // A write so both SQLite files have their -wal and -shm.
      const api = new ApiClient(app.url);
      await api.register();
      await api.post('/api/chat', {});
      expect(mode(dataDir)).toBe(0o700);
      const files = ['aigis.sqlite', 'aigis.sqlite-wal', 'aigis.sqlite-shm', 'checkpoints.sqlite', 'master.key'];
      for (const file of files) expect(mode(path.join(dataDir, file)), file).toBe(0o600);
      for (const file of fs.readdirSync(dataDir).filter((f) => f.startsWith('checkpoints.sqlite'))) expect(mode(path.join(dataDir, file)), file).toBe(0o600);
    } finally {
      await app.close();
      app = undefined;
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });

  it('fixes the modes of an existing DATA_DIR at start (files an older version created 0644)', async () => {
    const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-modes-'));
    const dataDir = path.join(parent, 'data');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    const old = new Database(path.join(dataDir, 'checkpoints.sqlite'));
    old.pragma('journal_mode = WAL');
    old.exec('CREATE TABLE t (x)');
    old.close();
    fs.writeFileSync(path.join(dataDir, 'aigis.sqlite'), '');
    fs.writeFileSync(path.join(dataDir, 'master.key'), `${'ab'.repeat(32)}\n`);
    for (const file of ['aigis.sqlite', 'checkpoints.sqlite', 'master.key']) fs.chmodSync(path.join(dataDir, file), 0o644);
    app = await startTestApp({ DATA_DIR: dataDir });
    try {
      expect(mode(dataDir)).toBe(0o700);
      for (const file of ['aigis.sqlite', 'checkpoints.sqlite', 'master.key']) expect(mode(path.join(dataDir, file)), file).toBe(0o600);
    } finally {
      await app.close();
      app = undefined;
      fs.rmSync(parent, { recursive: true, force: true });
    }
  });
});
