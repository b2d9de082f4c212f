import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import Database from 'better-sqlite3';
import type { Dialect } from '@aigis/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectAdapter, ExecuteOptions } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import { createMysqlDatabase, createPgDatabase, type MysqlDatabase, type PgDatabase, sqliteTarget } from './support/fixtures.js';

/**
 * Byte budgets on real databases: what an attacker (or a careless query) sends back — huge text, JSON, bytes, and
 * many wide rows — comes back cut, with the marker, and the reading stops at the result budget.
 */
const SETTINGS = { connectTimeoutMs: 5000, poolMax: 2 };
const CELL = 4096;
const RUN: ExecuteOptions = { maxRows: 500, timeoutMs: 20_000, budgets: { cellMaxBytes: CELL, resultMaxBytes: 50_000 } };
const DIALECTS: Dialect[] = ['postgres', 'mysql', 'sqlite'];

let pgDb: PgDatabase;
let myDb: MysqlDatabase;
let tmpDir: string;
const adapters = {} as Record<Dialect, DialectAdapter>;

beforeAll(async () => {
  [pgDb, myDb] = await Promise.all([createPgDatabase('bounds'), createMysqlDatabase('bounds')]);
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-t-'));
  const file = path.join(tmpDir, 'bounds.sqlite');
  const db = new Database(file);
  // A large value stored in a table, not only computed: what a hostile database file would hold.
  db.exec(`CREATE TABLE doc (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO doc VALUES (1, replace(hex(zeroblob(2500000)), '0', 'd'))`);
  db.close();
  await pgDb.query(`CREATE TABLE doc AS SELECT 1 AS id, repeat('d', 5000000) AS body, jsonb_build_object('k', repeat('j', 5000000)) AS meta`);
  adapters.postgres = createAdapter(pgDb.target({ id: 'bounds-pg' }), SETTINGS);
  adapters.mysql = createAdapter(myDb.target({ id: 'bounds-my' }), SETTINGS);
  adapters.sqlite = createAdapter(sqliteTarget(file, { id: 'bounds-lite' }), SETTINGS);
});

afterAll(async () => {
  await Promise.all(Object.values(adapters).map((a) => a?.close()));
  await Promise.all([pgDb?.drop(), myDb?.drop()]);
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

const TEXT: Record<Dialect, string> = {
  postgres: `SELECT repeat('x', 3000000) AS a, repeat('é', 1000000) AS b, 7 AS n`,
  mysql: `SELECT REPEAT('x', 3000000) AS a, REPEAT('é', 1000000) AS b, 7 AS n`,
  sqlite: `SELECT replace(hex(zeroblob(1500000)), '0', 'x') AS a, replace(hex(zeroblob(500000)), '0', 'é') AS b, 7 AS n`,
};

const WIDE_ROWS: Record<Dialect, string> = {
  postgres: `SELECT g, repeat('y', 2000) AS v FROM generate_series(1, 100000) g`,
  mysql: `WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 400) SELECT g, REPEAT('y', 2000) AS v FROM s`,
  sqlite: `WITH RECURSIVE s(g) AS (SELECT 1 UNION ALL SELECT g + 1 FROM s WHERE g < 100000) SELECT g, replace(hex(zeroblob(1000)), '0', 'y') AS v FROM s`,
};

const BIG_JSON: Record<Dialect, string> = {
  postgres: `SELECT jsonb_build_object('k', repeat('z', 200000)) AS j`,
  mysql: `SELECT JSON_OBJECT('k', REPEAT('z', 200000)) AS j`,
  sqlite: `SELECT json_object('k', replace(hex(zeroblob(100000)), '0', 'z')) AS j`,
};

const BIG_BYTES: Record<Dialect, string> = {
  postgres: `SELECT decode(repeat('ab', 500000), 'hex') AS b`,
  mysql: `SELECT UNHEX(REPEAT('ab', 500000)) AS b`,
  sqlite: `SELECT zeroblob(500000) AS b`,
};

describe.each(DIALECTS)('%s: byte budgets while reading', (dialect) => {
  it('cuts a huge value with a visible marker naming its size, on a character boundary, within the cell budget', async () => {
    const result = await adapters[dialect].executeReadOnly(TEXT[dialect], RUN);
    const { a, b, n } = result.rows[0] as { a: string; b: string; n: number };
    expect(a.endsWith('…[cut: 3,000,000 bytes]')).toBe(true);
    expect(b.endsWith('…[cut: 2,000,000 bytes]')).toBe(true);
    expect(a.startsWith('x'.repeat(3000))).toBe(true);
    for (const cell of [a, b]) expect(Buffer.byteLength(cell)).toBeLessThanOrEqual(CELL);
    // No half character before the marker.
    expect(b.replace(/…\[cut: [\d,]+ bytes\]$/, '')).toMatch(/^é+$/);
    expect(n).toBe(7);
    expect(result.truncated).toBe(false);
  });

  it('stops reading at the result budget (truncated, reason result_bytes), keeping the first rows in order', async () => {
    const result = await adapters[dialect].executeReadOnly(WIDE_ROWS[dialect], RUN);
    expect(result.truncated).toBe(true);
    expect(result.truncatedReason).toBe('result_bytes');
    expect(Buffer.byteLength(JSON.stringify(result.rows))).toBeLessThanOrEqual(50_000);
    expect(result.rows.length).toBeGreaterThan(15);
    expect(result.rows.map((r) => r.g)).toEqual(Array.from({ length: result.rows.length }, (_, i) => i + 1));
  });

  it('says when the row cap ended the result instead', async () => {
    const result = await adapters[dialect].executeReadOnly(WIDE_ROWS[dialect], { ...RUN, maxRows: 5 });
    expect(result.rows).toHaveLength(5);
    expect(result.truncatedReason).toBe('row_limit');
  });

  it('turns an oversized JSON value into its cut text instead of parsing it', async () => {
    const { rows } = await adapters[dialect].executeReadOnly(BIG_JSON[dialect], RUN);
    const j = rows[0].j as string;
    expect(typeof j).toBe('string');
    expect(j).toMatch(/^\{ ?"k": ?"zzzz/);
    expect(j).toMatch(/…\[cut: [\d,]+ bytes\]$/);
    expect(Buffer.byteLength(j)).toBeLessThanOrEqual(CELL);
  });

  it('reduces large bytes to their length', async () => {
    const { rows } = await adapters[dialect].executeReadOnly(BIG_BYTES[dialect], RUN);
    expect(rows[0].b).toEqual({ $bytes: 500_000 });
  });
});

describe('sqlite: values are cut in the SQLite process, before they cross to the API', () => {
  it('never sends a message larger than the budgets allow, even for three multi-megabyte values', async () => {
    const adapter = adapters.sqlite;
    await adapter.executeReadOnly('SELECT 1', RUN);
    const child = (adapter as unknown as { sqlite: { child: ChildProcess } }).sqlite.child;
    const sizes: number[] = [];
    const measure = (message: unknown) => sizes.push(v8.serialize(message).length);
    child.on('message', measure);
    try {
      const result = await adapter.executeReadOnly(
        `SELECT body AS a, body || 'b' AS b, body || 'c' AS c FROM doc`,
        RUN,
      );
      expect(result.rows[0].a).toMatch(/^d+…\[cut: 5,000,000 bytes\]$/);
      expect(result.rows[0].c).toMatch(/…\[cut: 5,000,001 bytes\]$/);
    } finally {
      child.off('message', measure);
    }
    expect(sizes.length).toBe(1);
    // Three cut cells (V8 writes a string with "…" as UTF-16: 2 bytes a character) and the envelope; without the
    // cut in the child this message would carry 15 MB.
    expect(sizes[0]).toBeLessThan(3 * 2 * CELL + 1024);
  });
});

describe.each(['postgres', 'sqlite'] as const)('%s: schema samples of huge values', (dialect) => {
  it('are cut before they are parsed, and show a short excerpt', async () => {
    const { tables } = await adapters[dialect].introspect({ sampleRows: 3, sampleConcurrency: 2, sampleTimeoutMs: 10_000 });
    const doc = tables.find((t) => t.name === 'doc')!;
    expect(doc.sample_error).toBeUndefined();
    const body = doc.sample_rows[0].body as string;
    expect(body.startsWith('ddd')).toBe(true);
    expect(body.length).toBeLessThanOrEqual(201);
  });
});
