import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ConnectionsService } from '../src/connections/connections.service.js';
import { ApiClient } from './support/api-client.js';
import { startTestApp } from './support/test-app.js';

const run = promisify(execFile);
const cli = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/src/cli/rotate-key.js');

/** The built command (npm test builds first), run as a user would, on a real DATA_DIR. */
describe('npm run rotate-key', () => {
  it('re-seals every password under a new generated key, and the app still opens them', async () => {
    expect(fs.existsSync(cli), `${cli} is built by \`npm run build\``).toBe(true);
    const first = await startTestApp({});
    const dataDir = first.dataDir;
    const api = new ApiClient(first.url);
    const me = await api.register();
    const created = (await api.post('/api/connections', { name: 'pg', url: 'postgres://u:rotate-me@127.0.0.1:5432/db' })).body;
    await first.app.close();
    const keyBefore = fs.readFileSync(path.join(dataDir, 'master.key'), 'utf8');
    const sealedBefore = (new Database(path.join(dataDir, 'aigis.sqlite'), { readonly: true }).prepare('SELECT sealed_password FROM connections').get() as { sealed_password: string }).sealed_password;

    const { stdout } = await run(process.execPath, [cli, '--generate'], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
    expect(stdout).toMatch(/Re-sealed 1, already current 0/);
    const keyAfter = fs.readFileSync(path.join(dataDir, 'master.key'), 'utf8');
    expect(keyAfter).not.toBe(keyBefore);
    expect(fs.existsSync(path.join(dataDir, 'master.key.next'))).toBe(false);
    expect(fs.statSync(path.join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    const sealedAfter = (new Database(path.join(dataDir, 'aigis.sqlite'), { readonly: true }).prepare('SELECT sealed_password FROM connections').get() as { sealed_password: string }).sealed_password;
    expect(sealedAfter.split('.')[1]).not.toBe(sealedBefore.split('.')[1]);

    const second = await startTestApp({ DATA_DIR: dataDir });
    try {
      const target = await second.app.get(ConnectionsService).target(me.id, created.id);
      expect(target.password).toBe('rotate-me');
      // Running it again changes nothing.
      const again = await run(process.execPath, [cli], { env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' } });
      expect(again.stdout).toMatch(/Re-sealed 0, already current 1/);
    } finally {
      await second.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
