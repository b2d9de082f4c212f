import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import { toJsonSafe } from '../src/connections/dialects/json-safe.js';
import { createMysqlDatabase, createPgDatabase, type MysqlDatabase, type PgDatabase, pgTarget, sqliteTarget } from './support/fixtures.js';

const SETTINGS = { connectTimeoutMs: 5000, poolMax: 2 };
const RUN = { maxRows: 100, timeoutMs: 10_000 };

let pgDb: PgDatabase;
let myDb: MysqlDatabase;
let tmpDir: string;
const adapters: DialectAdapter[] = [];

beforeAll(async () => {
  [pgDb, myDb] = await Promise.all([createPgDatabase('types'), createMysqlDatabase('types')]);
  // A zone far from UTC: date and timestamp must come back exactly as stored, timestamptz as the same instant.
  await pgDb.query(`ALTER DATABASE "${pgDb.name}" SET timezone TO 'Pacific/Kiritimati'`);
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-t-'));
});

afterAll(async () => {
  await Promise.all(adapters.map((a) => a.close()));
  await Promise.all([pgDb?.drop(), myDb?.drop()]);
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

function open(target: Parameters<typeof createAdapter>[0]): DialectAdapter {
  const a = createAdapter(target, SETTINGS);
  adapters.push(a);
  return a;
}

/** Every value must survive JSON unchanged (no BigInt, no Buffer, no NaN turning into null). */
function expectJsonStable(rows: Record<string, unknown>[]): void {
  expect(JSON.parse(JSON.stringify(rows))).toEqual(rows);
}

describe('postgres values', () => {
  it('every type family comes back JSON-safe and unshifted', async () => {
    const a = open(pgDb.target({ id: 'types-pg' }));
    const { rows } = await a.executeReadOnly(
      `SELECT 9007199254740993::int8 AS big, 42::int8 AS small, 7::int2 AS tiny,
              12345678901234567890.123::numeric AS bignum, 1.10::numeric(10,2) AS dec, 'NaN'::numeric AS nan_num,
              'Infinity'::float8 AS inf, '-Infinity'::float8 AS ninf, 'NaN'::float8 AS nanf, 1.5::float4 AS f4,
              '2024-02-29'::date AS d, '2024-02-29 13:45:00.123456'::timestamp AS ts,
              '2024-02-29 13:45:00.123456+02'::timestamptz AS tstz, 'infinity'::timestamptz AS tstz_inf,
              '\\xdeadbeef'::bytea AS bytes, decode(repeat('ab', 1000), 'hex') AS big_bytes,
              '{"a":[1,2,{"b":null}],"s":"ü"}'::jsonb AS doc, '{"x":1.5}'::json AS j,
              ARRAY[1, 2, NULL]::int8[] AS arr, ARRAY[['a','b'],['c','d"e']]::text[] AS arr2,
              ARRAY['2024-01-01'::date] AS darr, ARRAY[1.10, 2.5]::numeric[] AS numarr,
              '1 day 02:00:00'::interval AS iv, true AS flag, '11111111-1111-1111-1111-111111111111'::uuid AS u,
              NULL::text AS nothing`,
      RUN,
    );
    expect(rows[0]).toEqual({
      big: '9007199254740993',
      small: 42,
      tiny: 7,
      bignum: '12345678901234567890.123',
      dec: 1.1,
      nan_num: 'NaN',
      inf: 'Infinity',
      ninf: '-Infinity',
      nanf: 'NaN',
      f4: 1.5,
      d: '2024-02-29',
      ts: '2024-02-29 13:45:00.123456',
      tstz: '2024-02-29T11:45:00.123456Z',
      tstz_inf: 'infinity',
      bytes: { $bytes: 4, base64: '3q2+7w==' },
      big_bytes: { $bytes: 1000 },
      doc: { a: [1, 2, { b: null }], s: 'ü' },
      j: { x: 1.5 },
      arr: [1, 2, null],
      arr2: [
        ['a', 'b'],
        ['c', 'd"e'],
      ],
      darr: ['2024-01-01'],
      numarr: [1.1, 2.5],
      iv: '1 day 02:00:00',
      flag: true,
      u: '11111111-1111-1111-1111-111111111111',
      nothing: null,
    });
    expectJsonStable(rows);
  });

  it("leaves pg's global type parsers alone", async () => {
    const a = open(pgDb.target({ id: 'types-pg-global' }));
    await a.executeReadOnly(`SELECT '2024-02-29'::date AS d`, RUN);
    const target = pgTarget(pgDb.name);
    const client = new pg.Client({ host: target.host ?? undefined, port: target.port ?? undefined, user: target.user ?? undefined, database: pgDb.name });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT '2024-02-29'::date AS d, 5::int8 AS n`);
      expect(rows[0].d).toBeInstanceOf(Date); // pg's default, untouched by our per-pool parsers
      expect(rows[0].n).toBe('5');
    } finally {
      await client.end();
    }
  });
});

describe('mysql values', () => {
  it('every type family comes back JSON-safe', async () => {
    await myDb.query(`CREATE TABLE typed (
      big BIGINT, ubig BIGINT UNSIGNED, small INT, dec_exact DECIMAL(10,2), dec_long DECIMAL(30,3),
      d DATE, dt DATETIME(6), ts TIMESTAMP NULL, t TIME, y YEAR, bits BIT(3),
      blob_col BLOB, bin VARBINARY(8), doc JSON, f FLOAT, dbl DOUBLE, e ENUM('a','b'), txt VARCHAR(20))`);
    await myDb.query(`INSERT INTO typed VALUES (
      9007199254740993, 18446744073709551615, 42, 1.10, 12345678901234567890.123,
      '2024-02-29', '2024-02-29 13:45:00.123456', '2024-02-29 13:45:00', '25:30:00', 2024, b'101',
      X'DEADBEEF', X'0102', '{"a": [1, 2, {"b": null}]}', 1.5, 2.25, 'b', 'Größe ü')`);
    const a = open(myDb.target({ id: 'types-my' }));
    const { rows } = await a.executeReadOnly(
      'SELECT t.*, SUM(dec_exact) AS total, COUNT(*) AS n, AVG(small) AS average FROM typed t GROUP BY big',
      RUN,
    );
    expect(rows[0]).toEqual({
      big: '9007199254740993',
      ubig: '18446744073709551615',
      small: 42,
      dec_exact: 1.1,
      dec_long: '12345678901234567890.123',
      d: '2024-02-29',
      dt: '2024-02-29 13:45:00.123456',
      ts: '2024-02-29 13:45:00',
      t: '25:30:00',
      y: 2024,
      bits: 5,
      blob_col: { $bytes: 4, base64: '3q2+7w==' },
      bin: { $bytes: 2, base64: 'AQI=' },
      doc: { a: [1, 2, { b: null }] },
      f: 1.5,
      dbl: 2.25,
      e: 'b',
      txt: 'Größe ü',
      total: 1.1,
      n: 1,
      average: 42,
    });
    expectJsonStable(rows);
  });
});

describe('sqlite values', () => {
  it('every type family comes back JSON-safe', async () => {
    const file = path.join(tmpDir, 'types.sqlite');
    const writer = new Database(file);
    writer.exec(`CREATE TABLE typed (big INTEGER, small INTEGER, real REAL, txt TEXT, blob BLOB, inf REAL, missing TEXT)`);
    writer
      .prepare('INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(9007199254740993n, 42, 1.5, 'Größe ü', Buffer.from([0xde, 0xad, 0xbe, 0xef]), Number.POSITIVE_INFINITY, null);
    writer.close();
    const a = open(sqliteTarget(file, { id: 'types-lite' }));
    const { rows } = await a.executeReadOnly('SELECT *, -9223372036854775808 AS min64 FROM typed', RUN);
    expect(rows[0]).toEqual({
      big: '9007199254740993',
      small: 42,
      real: 1.5,
      txt: 'Größe ü',
      blob: { $bytes: 4, base64: '3q2+7w==' },
      inf: 'Infinity',
      missing: null,
      min64: '-9223372036854775808',
    });
    expectJsonStable(rows);
  });
});

describe('deeply nested JSON (red-team finding: 4,000 levels broke a thread for good)', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('postgres: json and jsonb nested past the limit come back as their text, shallower ones parsed', async () => {
    const a = open(pgDb.target({ id: 'deep-pg' }));
    const result = await a.executeReadOnly(`SELECT '${deep(4000)}'::json AS j, '${deep(4000)}'::jsonb AS jb, '${deep(3)}'::jsonb AS shallow`, RUN);
    const [row] = rowsOf(result);
    expect(typeof row.j).toBe('string');
    expect(typeof row.jb).toBe('string');
    expect(row.shallow).toEqual([[[]]]);
    expectJsonStable([row]);
  });

  it('a parsed value nested past the limit (as mysql2 hands MySQL 8 JSON over) is not walked', () => {
    let value: unknown = [];
    for (let i = 0; i < 5000; i++) value = [value];
    expect(toJsonSafe(value)).toMatch(/nested more than 64 levels/);
    expect(toJsonSafe([[[]]])).toEqual([[[]]]);
  });
});

function rowsOf(result: { columns: string[]; rows: unknown[] }): Record<string, unknown>[] {
  return result.rows.map((r) => (Array.isArray(r) ? Object.fromEntries(result.columns.map((c, i) => [c, r[i]])) : (r as Record<string, unknown>)));
}
