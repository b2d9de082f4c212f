import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { TEST_MYSQL_URL } from '@aigis/test-support/env';
import { connectionFields, createMysqlDatabase, type MysqlDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The same class of attack on MariaDB and SQLite, through the real API and read-only executor, with the
 * databases' state checked afterwards: rows, sequences, named locks, files.
 */
let myDb: MysqlDatabase;
let sqliteRoot: string;
let app: TestApp;
let user: ApiClient;
let mysqlConnection: string;
let sqliteConnection: string;
const lockName = `aigis_guard_${randomBytes(4).toString('hex')}`;
const outfile = path.join(os.tmpdir(), `aigis_guard_${randomBytes(4).toString('hex')}.txt`);
const admin = new URL(TEST_MYSQL_URL);

async function mysqlSession<T>(fn: (conn: mysql.Connection) => Promise<T>): Promise<T> {
  const conn = await mysql.createConnection({
    host: admin.hostname,
    port: Number(admin.port || 3306),
    user: decodeURIComponent(admin.username || 'root'),
    password: decodeURIComponent(admin.password),
    database: myDb.name,
  });
  try {
    return await fn(conn);
  } finally {
    await conn.end();
  }
}

async function mysqlState(): Promise<unknown> {
  return {
    rows: await myDb.query('SELECT COUNT(*) AS n, SUM(CRC32(CONCAT(a, b))) AS digest FROM t'),
    sequence: await myDb.query('SELECT next_not_cached_value FROM s'),
    lock: await myDb.query('SELECT IS_USED_LOCK(?) AS holder', [lockName]),
    outfile: fs.existsSync(outfile),
  };
}

function sqliteDigest(): string {
  return createHash('sha256').update(fs.readFileSync(path.join(sqliteRoot, 'guard.sqlite'))).digest('hex');
}

beforeAll(async () => {
  myDb = await createMysqlDatabase('guardexec');
  await myDb.query('CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(20))');
  await myDb.query("INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
  await myDb.query('CREATE SEQUENCE s');

  sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-guard-sqlite-'));
  const file = new Database(path.join(sqliteRoot, 'guard.sqlite'));
  file.exec("CREATE TABLE t (a INTEGER PRIMARY KEY, b TEXT); INSERT INTO t VALUES (1, 'one'), (2, 'two');");
  file.close();

  app = await startTestApp({ SQLITE_ROOT: sqliteRoot });
  user = new ApiClient(app.url);
  await user.register();
  const my = await user.post('/api/connections', { name: 'guard mysql', ...connectionFields(myDb.target()) });
  expect(my.status).toBe(201);
  mysqlConnection = my.body.id;
  const lite = await user.post('/api/connections', { name: 'guard sqlite', dialect: 'sqlite', database: 'guard.sqlite' });
  expect(lite.status).toBe(201);
  sqliteConnection = lite.body.id;
});

afterAll(async () => {
  await app?.close();
  await myDb?.drop();
  if (sqliteRoot) fs.rmSync(sqliteRoot, { recursive: true, force: true });
  fs.rmSync(outfile, { force: true });
});

async function refusals(connectionId: string, attacks: [sql: string, fragment: string][]): Promise<string[]> {
  const failures: string[] = [];
  for (const [sql, fragment] of attacks) {
    const response = await user.post(`/api/connections/${connectionId}/query`, { sql });
    const message: string = response.body?.error?.message ?? '';
    if (response.status !== 400 || response.body?.error?.code !== 'SQL_REJECTED' || !message.toLowerCase().includes(fragment)) {
      failures.push(`${sql} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
    }
  }
  return failures;
}

describe('MariaDB through the read-only executor', () => {
  it('a named lock taken inside a READ ONLY transaction outlives its rollback (so the guard must stop GET_LOCK)', async () => {
    const holder = await mysqlSession(async (conn) => {
      await conn.query('START TRANSACTION READ ONLY');
      await conn.query('SELECT GET_LOCK(?, 0)', [lockName]);
      await conn.query('ROLLBACK');
      const [rows] = await conn.query('SELECT IS_USED_LOCK(?) AS holder', [lockName]);
      await conn.query('SELECT RELEASE_LOCK(?)', [lockName]);
      return (rows as { holder: number | null }[])[0]!.holder;
    });
    expect(holder).not.toBeNull();
  });

  it('refuses every form and leaves rows, the sequence, named locks and the file system as they were', async () => {
    const before = await mysqlState();
    const failures = await refusals(mysqlConnection, [
      [`SELECT GET_LOCK('${lockName}', 0)`, 'function get_lock is not allowed'],
      [`SELECT {fn GET_LOCK('${lockName}', 0)}`, 'function get_lock is not allowed'],
      [`SELECT a FROM t WHERE GET_LOCK /* x */ ('${lockName}', 0) = 1`, 'function get_lock is not allowed'],
      ['SELECT NEXTVAL(s)', 'function nextval is not allowed'],
      ['SELECT a FROM t ORDER BY NEXTVAL(s)', 'function nextval is not allowed'],
      ['SELECT NEXT VALUE FOR s', 'next value for is not allowed'],
      ['SELECT SETVAL(s, 1000)', 'function setval is not allowed'],
      ['SELECT LAST_INSERT_ID(42)', 'function last_insert_id is not allowed'],
      ["SELECT LOAD_FILE('/etc/hostname')", 'function load_file is not allowed'],
      ["SELECT `load_file`('/etc/hostname')", 'function load_file is not allowed'],
      [`SELECT a, b FROM t INTO OUTFILE '${outfile}'`, 'select into is not allowed'],
      ['SELECT a INTO @v FROM t LIMIT 1', 'select into is not allowed'],
      ['SELECT SLEEP(3)', 'function sleep is not allowed'],
      ["SELECT sys_exec('touch /tmp/pwned')", 'function sys_exec is not allowed'],
      [`SELECT ${myDb.name}.my_udf(1)`, `function ${myDb.name}.my_udf is not allowed`],
      ['SELECT 1 /*!50000 , SLEEP(3) */', 'executable comments'],
    ]);
    expect(failures).toEqual([]);
    expect(await mysqlState()).toEqual(before);
  });

  it('still runs analytics', async () => {
    const response = await user.post(`/api/connections/${mysqlConnection}/query`, {
      sql: "SELECT a, UPPER(b) AS b, RANK() OVER (ORDER BY a DESC) AS r, LASTVAL(s) AS last, DATE_FORMAT('2024-05-01', '%Y') AS y FROM t ORDER BY a LIMIT 1",
    });
    expect(response.status).toBe(200);
    expect(response.body.rows).toEqual([{ a: 1, b: 'ONE', r: 3, last: null, y: '2024' }]);
  });
});

describe('SQLite through the read-only executor', () => {
  it('a PRAGMA table-valued function reveals the server’s file paths when it runs (so the guard must stop it)', () => {
    const db = new Database(path.join(sqliteRoot, 'guard.sqlite'), { readonly: true });
    expect(db.prepare('SELECT file FROM pragma_database_list').get()).toEqual({ file: path.join(sqliteRoot, 'guard.sqlite') });
    db.close();
  });

  it('refuses every form and leaves the file unchanged', async () => {
    const before = sqliteDigest();
    const failures = await refusals(sqliteConnection, [
      ["SELECT load_extension('/tmp/evil.so')", 'function load_extension is not allowed'],
      ["SELECT a FROM t WHERE \"LOAD_EXTENSION\"('/tmp/evil.so') IS NULL", 'function load_extension is not allowed'],
      ["SELECT a FROM t ORDER BY [load_extension]('/tmp/evil.so')", 'function load_extension is not allowed'],
      ['SELECT file FROM pragma_database_list', 'function pragma_database_list is not allowed'],
      ["SELECT fts3_tokenizer('simple')", 'function fts3_tokenizer is not allowed'],
      ['SELECT sqlite_compileoption_get(0)', 'function sqlite_compileoption_get is not allowed'],
      ["WITH c AS (SELECT readfile('/etc/passwd') AS f) SELECT * FROM c", 'function readfile is not allowed'],
      ['SELECT my_fn(a) FROM t', 'function my_fn is not allowed'],
    ]);
    expect(failures).toEqual([]);
    expect(sqliteDigest()).toBe(before);
  });

  it('still runs analytics and the schema table-valued functions', async () => {
    const response = await user.post(`/api/connections/${sqliteConnection}/query`, {
      sql: "SELECT (SELECT count(*) FROM pragma_table_info('t')) AS columns, upper(b) AS b, rank() OVER (ORDER BY a DESC) AS r FROM t ORDER BY a LIMIT 1",
    });
    expect(response.status).toBe(200);
    expect(response.body.rows).toEqual([{ columns: 2, b: 'ONE', r: 2 }]);
  });
});
