import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import { sqliteChildModule, SqliteProcess } from '../src/connections/dialects/sqlite/sqlite-process.js';
import type { SqliteAdapter } from '../src/connections/dialects/sqlite/sqlite.adapter.js';
import { sqliteChinookPath, sqliteTarget } from './support/fixtures.js';

const SETTINGS = { connectTimeoutMs: 5000, poolMax: 2 };
const HERE = path.dirname(fileURLToPath(import.meta.url));
const DIST_DIALECTS = path.resolve(HERE, '../dist/src/connections/dialects/index.js');
const SOURCE_CHILD = path.resolve(HERE, '../src/connections/dialects/sqlite/sqlite-child.ts');
const BUILT_CHILD = path.resolve(HERE, '../dist/src/connections/dialects/sqlite/sqlite-child.js');

/** What the process `pid` runs, and the environment it was given (Linux /proc). */
function processOf(pid: number | null): { argv: string[]; environ: string } {
  expect(pid).not.toBeNull();
  return {
    argv: fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean),
    // Node itself adds the IPC channel's NODE_CHANNEL_FD and NODE_CHANNEL_SERIALIZATION_MODE; nothing else may come.
    environ: fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter((v) => v && !v.startsWith('NODE_CHANNEL_'))
      .join('\n'),
  };
}

/** Answers a query, then a runaway statement is stopped at its timeout by killing the process. */
async function answersAndStops(adapter: DialectAdapter): Promise<{ argv: string[]; environ: string }> {
  const { rows } = await adapter.executeReadOnly('SELECT "Name" FROM "Artist" ORDER BY "ArtistId" LIMIT 2', { maxRows: 10, timeoutMs: 5000 });
  expect(rows).toEqual([{ Name: 'AC/DC' }, { Name: 'Accept' }]);
  const pid = (adapter as SqliteAdapter).processId;
  const child = processOf(pid);
  const runaway = adapter.executeReadOnly('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', { maxRows: 1, timeoutMs: 300 });
  await expect(runaway).rejects.toMatchObject({ code: 'QUERY_TIMEOUT' });
  expect(fs.existsSync(`/proc/${pid}`)).toBe(false);
  await adapter.close();
  return child;
}

describe('the SQLite process is a typed module started with fork', () => {
  it('runs the module sqliteChildModule() names, with an empty environment and no flags of ours', async () => {
    const adapter = createAdapter(sqliteTarget(sqliteChinookPath(), { id: 'fork-src' }), SETTINGS);
    const { argv, environ } = await answersAndStops(adapter);
    expect(argv.slice(1)).toEqual([fileURLToPath(sqliteChildModule())]);
    expect([SOURCE_CHILD, BUILT_CHILD]).toContain(argv[1]);
    expect(environ).toBe('');
  });

  it('the TypeScript source runs as it is (Node strips the types), and answers with the typed protocol', async () => {
    // A generous start bound: stripping the types makes the start slower on a loaded machine.
    const sqlite = new SqliteProcess(sqliteChinookPath(), 60_000, new URL(`file://${SOURCE_CHILD}`));
    try {
      const reply = await sqlite.request('exec', { sql: 'SELECT count(*) AS n FROM "Track"', maxRows: 5, cellMaxBytes: 1000, resultMaxBytes: 10_000 }, 60_000);
      expect(reply).toEqual({ columns: ['n'], rows: [[3503n]], truncated: false, reason: null });
      expect(processOf(sqlite.processId).argv.slice(1)).toEqual([SOURCE_CHILD]);
      const plan = await sqlite.request('plan', { sql: 'SELECT * FROM "Track"' }, 60_000);
      expect(plan.tables).toContain('Track');
      await expect(sqlite.request('exec', { sql: 'DELETE FROM "Track"', maxRows: 5, cellMaxBytes: 1000, resultMaxBytes: 10_000 }, 60_000)).rejects.toMatchObject({
        code: 'QUERY_FAILED',
      });
    } finally {
      await sqlite.close();
    }
  });

  it('from the built dist (what npm start runs) it runs the compiled sqlite-child.js', async () => {
    expect(fs.existsSync(DIST_DIALECTS), 'run `npm run build` first').toBe(true);
    const dist = (await import(DIST_DIALECTS)) as { createAdapter: typeof createAdapter };
    const adapter = dist.createAdapter(sqliteTarget(sqliteChinookPath(), { id: 'fork-dist' }), SETTINGS);
    const { argv, environ } = await answersAndStops(adapter);
    expect(argv.slice(1)).toEqual([BUILT_CHILD]);
    expect(environ).toBe('');
  });
});
