import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Dialect } from '@aigis/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/common/app-error.js';
import type { DialectAdapter, ExecuteOptions } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import { SqliteAdapter } from '../src/connections/dialects/sqlite/sqlite.adapter.js';
import {
  createMysqlDatabase,
  createPgDatabase,
  loadMysqlChinook,
  loadPgChinook,
  type MysqlDatabase,
  mysqlAdminQuery,
  type PgDatabase,
  sqliteChinookPath,
  sqliteTarget,
} from './support/fixtures.js';

const SETTINGS = { connectTimeoutMs: 5000, poolMax: 3 };
const RUN: ExecuteOptions = { maxRows: 500, timeoutMs: 10_000 };

let pgDb: PgDatabase;
let myDb: MysqlDatabase;
let tmpDir: string;
let sqliteCopy: string;
const adapters = {} as Record<Dialect, DialectAdapter>;

beforeAll(async () => {
  [pgDb, myDb] = await Promise.all([createPgDatabase('exec'), createMysqlDatabase('exec')]);
  await Promise.all([loadPgChinook(pgDb), loadMysqlChinook(myDb)]);
  // Write attempts run against a private copy (outside the repository) so a bug could never damage the shared file.
  tmpDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-t-'));
  sqliteCopy = path.join(tmpDir, 'chinook.sqlite');
  fs.copyFileSync(sqliteChinookPath(), sqliteCopy);
  adapters.postgres = createAdapter(pgDb.target({ id: 'exec-pg' }), SETTINGS);
  adapters.mysql = createAdapter(myDb.target({ id: 'exec-my' }), SETTINGS);
  adapters.sqlite = createAdapter(sqliteTarget(sqliteCopy, { id: 'exec-lite' }), SETTINGS);
});

afterAll(async () => {
  await Promise.all(Object.values(adapters).map((a) => a?.close()));
  await Promise.all([pgDb?.drop(), myDb?.drop()]);
  if (tmpDir) fs.rmSync(tmpDir, { recursive: true, force: true });
});

/** Statements of ours still running in the database (the adapters' sessions only), described for the failure message. */
async function runningStatements(dialect: Dialect): Promise<string[]> {
  if (dialect === 'postgres') {
    const rows = await pgDb.query<{ pid: number; query: string }>(
      `SELECT pid, query FROM pg_stat_activity WHERE datname = $1 AND application_name = 'aigis' AND state = 'active'`,
      [pgDb.name],
    );
    return rows.map((r) => `${r.pid}: ${r.query}`);
  }
  if (dialect === 'mysql') {
    const rows = await mysqlAdminQuery<{ ID: number; INFO: string }>(
      `SELECT ID, INFO FROM information_schema.PROCESSLIST WHERE DB = ? AND COMMAND = 'Query'`,
      [myDb.name],
    );
    return rows.map((r) => `${r.ID}: ${r.INFO}`);
  }
  const pid = (adapters.sqlite as SqliteAdapter).processId;
  return pid !== null && isAlive(pid) ? [`SQLite process ${pid}`] : [];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected the statement to fail');
}

/** The same questions, written for each dialect's Chinook (PostgreSQL snake_case, the others PascalCase). */
const QUESTIONS: { question: string; sql: Record<Dialect, string>; expected: Record<string, unknown>[] }[] = [
  {
    question: 'the three artists with the most tracks',
    sql: {
      postgres: `SELECT ar.name AS artist, COUNT(*) AS tracks FROM artist ar JOIN album al ON al.artist_id = ar.artist_id
                 JOIN track t ON t.album_id = al.album_id GROUP BY ar.name ORDER BY tracks DESC, ar.name LIMIT 3`,
      mysql: `SELECT ar.Name AS artist, COUNT(*) AS tracks FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId
              JOIN Track t ON t.AlbumId = al.AlbumId GROUP BY ar.Name ORDER BY tracks DESC, ar.Name LIMIT 3`,
      sqlite: `SELECT ar.Name AS artist, COUNT(*) AS tracks FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId
               JOIN Track t ON t.AlbumId = al.AlbumId GROUP BY ar.Name ORDER BY tracks DESC, ar.Name LIMIT 3`,
    },
    expected: [
      { artist: 'Iron Maiden', tracks: 213 },
      { artist: 'U2', tracks: 135 },
      { artist: 'Led Zeppelin', tracks: 114 },
    ],
  },
  {
    question: 'revenue of the three best countries',
    sql: {
      postgres: `SELECT billing_country AS country, ROUND(SUM(total), 2) AS revenue FROM invoice GROUP BY billing_country ORDER BY revenue DESC LIMIT 3`,
      mysql: `SELECT BillingCountry AS country, ROUND(SUM(Total), 2) AS revenue FROM Invoice GROUP BY BillingCountry ORDER BY revenue DESC LIMIT 3`,
      sqlite: `SELECT BillingCountry AS country, ROUND(SUM(Total), 2) AS revenue FROM Invoice GROUP BY BillingCountry ORDER BY revenue DESC LIMIT 3`,
    },
    expected: [
      { country: 'USA', revenue: 523.06 },
      { country: 'Canada', revenue: 303.96 },
      { country: 'France', revenue: 195.1 },
    ],
  },
];

const DIALECTS: Dialect[] = ['postgres', 'mysql', 'sqlite'];
const TRACK_IDS: Record<Dialect, string> = {
  postgres: 'SELECT track_id FROM track ORDER BY track_id',
  mysql: 'SELECT TrackId FROM Track ORDER BY TrackId',
  sqlite: 'SELECT TrackId FROM Track ORDER BY TrackId',
};
const TRACK_COUNT = 3503;

describe.each(DIALECTS)('%s: running statements', (dialect) => {
  it.each(QUESTIONS)('answers "$question" with the same rows as every other dialect', async ({ sql, expected }) => {
    const result = await adapters[dialect].executeReadOnly(sql[dialect], RUN);
    expect(result.columns).toEqual(Object.keys(expected[0]));
    expect(result.rows).toEqual(expected);
    expect(result.truncated).toBe(false);
    expect(JSON.parse(JSON.stringify(result.rows))).toEqual(expected);
  });

  it.each([
    { maxRows: 10, rows: 10, truncated: true },
    { maxRows: TRACK_COUNT - 1, rows: TRACK_COUNT - 1, truncated: true },
    { maxRows: TRACK_COUNT, rows: TRACK_COUNT, truncated: false },
    { maxRows: TRACK_COUNT + 1, rows: TRACK_COUNT, truncated: false },
  ])('caps rows at $maxRows exactly (truncated: $truncated)', async ({ maxRows, rows, truncated }) => {
    for (const appendLimit of dialect === 'mysql' ? [true, false] : [false]) {
      const result = await adapters[dialect].executeReadOnly(TRACK_IDS[dialect], { ...RUN, maxRows, appendLimit });
      expect(result.rows).toHaveLength(rows);
      expect(result.truncated).toBe(truncated);
      expect(Object.values(result.rows[rows - 1])[0]).toBe(rows);
    }
  });

  it('returns duplicate column names under distinct keys', async () => {
    const result = await adapters[dialect].executeReadOnly('SELECT 1 AS id, 2 AS id', RUN);
    expect(result.columns).toEqual(['id', 'id_2']);
    expect(result.rows).toEqual([{ id: 1, id_2: 2 }]);
  });

  it.each([
    { cls: 'syntax', sql: { postgres: 'SELEC 1', mysql: 'SELEC 1', sqlite: 'SELEC 1' } },
    {
      cls: 'column_not_found',
      sql: { postgres: 'SELECT nme FROM artist', mysql: 'SELECT Nme FROM Artist', sqlite: 'SELECT Nme FROM Artist' },
    },
    {
      cls: 'table_not_found',
      sql: { postgres: 'SELECT * FROM artists', mysql: 'SELECT * FROM Artists', sqlite: 'SELECT * FROM Artists' },
    },
  ])('reports a $cls error with the database message and class', async ({ cls, sql }) => {
    const err = await failure(adapters[dialect].executeReadOnly(sql[dialect], RUN));
    expect(err.code).toBe('QUERY_FAILED');
    expect(err.details).toMatchObject({ class: cls });
    expect((err.details as { db_code: unknown }).db_code).toBeTruthy();
    expect(err.message.length).toBeGreaterThan(5);
  });
});

describe('postgres: database messages for the model', () => {
  it('passes the hint and the position within the user statement', async () => {
    const err = await failure(adapters.postgres.executeReadOnly('SELECT titel FROM album', RUN));
    expect(err.message).toMatch(/column "titel" does not exist/);
    expect(err.details).toMatchObject({ class: 'column_not_found', db_code: '42703', position: 8 });
  });

  it('classifies a wrong argument type as type_mismatch', async () => {
    const err = await failure(adapters.postgres.executeReadOnly(`SELECT round(milliseconds::float8, 2) FROM track`, RUN));
    expect(err.details).toMatchObject({ class: 'type_mismatch', db_code: '42883' });
  });
});

// A runaway recursive CTE: each step doubles the rows (MariaDB caps recursion depth, not row count).
const RUNAWAY_CTE =
  'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT c.x + 1 FROM c CROSS JOIN (SELECT 1 AS y UNION ALL SELECT 2) t WHERE c.x < 60) ' +
  'SELECT COUNT(*) AS n FROM c';
const SLEEP: Partial<Record<Dialect, string>> = { postgres: 'SELECT pg_sleep(20)', mysql: 'SELECT SLEEP(20)' };

describe.each(DIALECTS)('%s: timeouts and cancellation', (dialect) => {
  const statements = [
    { label: 'a runaway recursive CTE', sql: RUNAWAY_CTE },
    ...(SLEEP[dialect] ? [{ label: 'a sleep', sql: SLEEP[dialect] }] : []),
  ];

  it.each(statements)('stops $label at the timeout, in the database', async ({ sql }) => {
    const started = Date.now();
    const err = await failure(adapters[dialect].executeReadOnly(sql, { maxRows: 10, timeoutMs: 600 }));
    const elapsed = Date.now() - started;
    expect(err.code).toBe('QUERY_TIMEOUT');
    expect(err.message).toBe('the query ran longer than 0.6 s and was stopped');
    expect(elapsed).toBeGreaterThanOrEqual(550);
    expect(elapsed).toBeLessThan(3000);
    expect(await runningStatements(dialect)).toEqual([]);
    // The adapter is usable right after.
    expect((await adapters[dialect].executeReadOnly('SELECT 1 AS one', RUN)).rows).toEqual([{ one: 1 }]);
  });

  it.each(statements)('stops $label when the signal aborts, in the database', async ({ sql }) => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 400);
    const err = await failure(adapters[dialect].executeReadOnly(sql, { maxRows: 10, timeoutMs: 30_000, signal: controller.signal }));
    expect(err.code).toBe('QUERY_CANCELLED');
    expect(Date.now() - started).toBeLessThan(3000);
    expect(await runningStatements(dialect)).toEqual([]);
    expect((await adapters[dialect].executeReadOnly('SELECT 2 AS two', RUN)).rows).toEqual([{ two: 2 }]);
  });

  it('rejects at once when the signal was already aborted', async () => {
    const err = await failure(adapters[dialect].executeReadOnly('SELECT 1', { ...RUN, signal: AbortSignal.abort() }));
    expect(err.code).toBe('QUERY_CANCELLED');
  });
});

describe('guard bypassed: the database itself refuses to write', () => {
  const WRITES: Record<Dialect, string[]> = {
    postgres: [
      `INSERT INTO genre (genre_id, name) VALUES (900, 'x')`,
      `UPDATE genre SET name = 'x'`,
      `DELETE FROM genre`,
      `CREATE TABLE aigis_evil (id int)`,
      `DROP TABLE genre`,
      `WITH gone AS (DELETE FROM genre RETURNING *) SELECT * FROM gone`,
      `SELECT 1; DELETE FROM genre`,
    ],
    mysql: [
      `INSERT INTO Genre (GenreId, Name) VALUES (900, 'x')`,
      `UPDATE Genre SET Name = 'x'`,
      `DELETE FROM Genre`,
      `CREATE TABLE aigis_evil (id int)`,
      `DROP TABLE Genre`,
      `SELECT 1; DELETE FROM Genre`,
    ],
    sqlite: [
      `INSERT INTO Genre (GenreId, Name) VALUES (900, 'x') RETURNING *`,
      `UPDATE Genre SET Name = 'x' RETURNING *`,
      `DELETE FROM Genre RETURNING *`,
      `INSERT INTO Genre (GenreId, Name) VALUES (901, 'y')`,
      `CREATE TABLE aigis_evil (id int)`,
      `DROP TABLE Genre`,
      `SELECT 1; DELETE FROM Genre`,
    ],
  };

  async function genreState(dialect: Dialect): Promise<string> {
    const sql = dialect === 'postgres' ? 'SELECT genre_id, name FROM genre ORDER BY 1' : 'SELECT GenreId, Name FROM Genre ORDER BY 1';
    return JSON.stringify((await adapters[dialect].executeReadOnly(sql, RUN)).rows);
  }

  it.each(DIALECTS)('%s: every write fails and nothing changes', async (dialect) => {
    const before = await genreState(dialect);
    const fileHash = dialect === 'sqlite' ? sha256(sqliteCopy) : null;
    for (const sql of WRITES[dialect]) {
      const err = await failure(adapters[dialect].executeReadOnly(sql, RUN));
      expect(err.code, sql).toBe('QUERY_FAILED');
    }
    expect(await genreState(dialect)).toBe(before);
    if (dialect === 'postgres') {
      expect(await pgDb.query(`SELECT 1 FROM pg_class WHERE relname = 'aigis_evil'`)).toHaveLength(0);
    } else if (dialect === 'mysql') {
      expect(await myDb.query(`SHOW TABLES LIKE 'aigis_evil'`)).toHaveLength(0);
    } else {
      expect(sha256(sqliteCopy)).toBe(fileHash);
    }
  });

  it('mysql: INSERT and DDL are refused by the read-only transaction and session', async () => {
    for (const sql of [`INSERT INTO Genre (GenreId, Name) VALUES (900, 'x')`, `CREATE TABLE aigis_evil (id int)`]) {
      const err = await failure(adapters.mysql.executeReadOnly(sql, RUN));
      expect(err.details, sql).toMatchObject({ class: 'read_only', db_code: 'ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION' });
    }
  });

  it('sqlite: a writing statement is refused by the read-only file', async () => {
    const err = await failure(adapters.sqlite.executeReadOnly(`INSERT INTO Genre (GenreId, Name) VALUES (900, 'x') RETURNING *`, RUN));
    expect(err.message).toMatch(/readonly/i);
    expect(err.details).toMatchObject({ class: 'read_only' });
  });

  it('postgres: a VOLATILE function that writes is stopped by the READ ONLY transaction', async () => {
    await pgDb.query(`CREATE TABLE audit_note (note text)`);
    await pgDb.query(`CREATE FUNCTION sneaky_insert() RETURNS int VOLATILE LANGUAGE plpgsql AS $$
      BEGIN INSERT INTO audit_note VALUES ('written'); RETURN 1; END $$`);
    await pgDb.query(`CREATE FUNCTION sneaky_ddl() RETURNS int VOLATILE LANGUAGE plpgsql AS $$
      BEGIN CREATE TABLE sneaky_table (id int); RETURN 1; END $$`);
    for (const sql of ['SELECT sneaky_insert()', 'SELECT sneaky_ddl()', 'SELECT name, sneaky_insert() FROM genre']) {
      const err = await failure(adapters.postgres.executeReadOnly(sql, RUN));
      expect(err.message, sql).toMatch(/read-only transaction/);
      expect(err.details).toMatchObject({ class: 'read_only', db_code: '25006' });
    }
    expect(await pgDb.query('SELECT * FROM audit_note')).toHaveLength(0);
    expect(await pgDb.query(`SELECT 1 FROM pg_class WHERE relname = 'sneaky_table'`)).toHaveLength(0);
  });
});

function sha256(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}
