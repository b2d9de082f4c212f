import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParserSqlGuard } from '../src/sql-guard/index.js';
import { TEST_MYSQL_URL } from '@aigis/test-support/env';

/**
 * The MySQL guard lexes by the server's rules, not the parser's. These cases show on the real MariaDB
 * that the server reads each statement the way the guard assumes, and what the guard does with it.
 */
const guard = new ParserSqlGuard();
let connection: mysql.Connection;

beforeAll(async () => {
  const url = new URL(TEST_MYSQL_URL);
  connection = await mysql.createConnection({
    host: url.hostname,
    port: Number(url.port || 3306),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
  });
});

afterAll(async () => {
  await connection?.end();
});

async function firstRow(sql: string): Promise<unknown[]> {
  const [rows] = await connection.query({ sql, rowsAsArray: true });
  return (rows as unknown[][])[0]!;
}

describe('MySQL lexing, confirmed on the server', () => {
  it('reads `--1` as minus minus one, so the guard keeps it in the statement', async () => {
    expect(await firstRow('SELECT 1 --1')).toEqual([2]);
    expect(await guard.check('mysql', 'SELECT 1 --1;')).toEqual({ ok: true, sql: 'SELECT 1 --1', hasTopLevelLimit: false });
  });

  it('reads `# …` as a comment, which the guard strips at the end', async () => {
    expect(await firstRow('SELECT 1 # + 1')).toEqual([1]);
    expect(await guard.check('mysql', 'SELECT 1 # + 1')).toEqual({ ok: true, sql: 'SELECT 1', hasTopLevelLimit: false });
  });

  it('runs the content of /*! … */ and /*M! … */, which the guard refuses', async () => {
    expect(await firstRow('SELECT 1 /*! +1 */')).toEqual([2]);
    expect(await firstRow('SELECT 1 /*M! +1 */')).toEqual([2]);
    const mysqlComment = await guard.check('mysql', 'SELECT 1 /*! +1 */');
    const mariadbComment = await guard.check('mysql', 'SELECT 1 /*M! +1 */');
    expect(mysqlComment.ok || mysqlComment.reason).toContain('MySQL executable comments (/*! … */) are not allowed');
    expect(mariadbComment.ok || mariadbComment.reason).toContain('MariaDB executable comments (/*M! … */) are not allowed');
  });

  it('reads a backslash-quote differently under NO_BACKSLASH_ESCAPES, which the guard refuses', async () => {
    const sql = "SELECT 'x\\' , 1 , '#'";
    expect(await firstRow(sql)).toHaveLength(1);
    await connection.query("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')");
    try {
      expect(await firstRow(sql)).toHaveLength(3);
    } finally {
      await connection.query('SET SESSION sql_mode = DEFAULT');
    }
    const verdict = await guard.check('mysql', sql);
    expect(verdict.ok || verdict.reason).toContain("read differently depending on the server's sql_mode");
  });
});
