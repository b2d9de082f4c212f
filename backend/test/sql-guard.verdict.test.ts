import type { Dialect } from '@aigis/contracts';
import { describe, expect, it } from 'vitest';
import { ParserSqlGuard } from '../src/sql-guard/index.js';

/**
 * Read-only queries the guard lets through, per dialect, with the statement the executor will run
 * (trimmed; trailing semicolons and comments gone; nothing else changed) and whether the outermost
 * query already has a LIMIT (the MySQL executor appends one when not).
 */
type Accepted = { sql: string; hasTopLevelLimit: boolean };
type Case = [input: string, expect: Partial<Record<Dialect, Accepted>>];

const ok = (sql: string, hasTopLevelLimit = false): Accepted => ({ sql, hasTopLevelLimit });
const all = (accepted: Accepted) => ({ postgres: accepted, mysql: accepted, sqlite: accepted });

const CASES: Case[] = [
  ['SELECT 1', all(ok('SELECT 1'))],
  ['  SELECT 1 ;  ', all(ok('SELECT 1'))],
  ['SELECT 1;;; \n', all(ok('SELECT 1'))],
  ['; SELECT 1', all(ok('SELECT 1'))],
  ['SELECT a FROM t LIMIT 5;', all(ok('SELECT a FROM t LIMIT 5', true))],
  ['SELECT a FROM t LIMIT 5 -- the first five', all(ok('SELECT a FROM t LIMIT 5', true))],
  ['SELECT a FROM t LIMIT 5 /* trailing */ ;', all(ok('SELECT a FROM t LIMIT 5', true))],
  ['/* leading */ SELECT 1', all(ok('/* leading */ SELECT 1'))],
  ['SELECT a -- the a\nFROM t;', all(ok('SELECT a -- the a\nFROM t'))],
  ['SELECT * FROM (SELECT a FROM t LIMIT 5) s', all(ok('SELECT * FROM (SELECT a FROM t LIMIT 5) s'))],
  ['SELECT (SELECT b FROM u LIMIT 1) AS x FROM t', all(ok('SELECT (SELECT b FROM u LIMIT 1) AS x FROM t'))],
  ['WITH c AS (SELECT a FROM t LIMIT 5) SELECT * FROM c', all(ok('WITH c AS (SELECT a FROM t LIMIT 5) SELECT * FROM c'))],
  ['SELECT a FROM t UNION SELECT b FROM u LIMIT 3', all(ok('SELECT a FROM t UNION SELECT b FROM u LIMIT 3', true))],
  [
    '(SELECT a FROM t LIMIT 1) UNION ALL (SELECT b FROM u LIMIT 2)',
    { postgres: ok('(SELECT a FROM t LIMIT 1) UNION ALL (SELECT b FROM u LIMIT 2)'), mysql: ok('(SELECT a FROM t LIMIT 1) UNION ALL (SELECT b FROM u LIMIT 2)') },
  ],
  ['SELECT a FROM t INTERSECT SELECT b FROM u', all(ok('SELECT a FROM t INTERSECT SELECT b FROM u'))],
  ['SELECT a FROM t EXCEPT SELECT b FROM u', all(ok('SELECT a FROM t EXCEPT SELECT b FROM u'))],
  ["VALUES (1, 'a'), (2, 'b')", { postgres: ok("VALUES (1, 'a'), (2, 'b')"), sqlite: ok("VALUES (1, 'a'), (2, 'b')") }],
  ['VALUES (1), (2) LIMIT 1', { postgres: ok('VALUES (1), (2) LIMIT 1', true) }],
  ['SELECT a FROM t FETCH FIRST 3 ROWS ONLY', { postgres: ok('SELECT a FROM t FETCH FIRST 3 ROWS ONLY', true) }],
  ['SELECT a FROM t LIMIT ALL', { postgres: ok('SELECT a FROM t LIMIT ALL', false) }],
  ['SELECT a FROM t OFFSET 2', { postgres: ok('SELECT a FROM t OFFSET 2', false) }],
  ['SELECT a FROM t LIMIT 10, 5', { mysql: ok('SELECT a FROM t LIMIT 10, 5', true) }],
  // Runaway recursion is legal SQL: the statement timeout (layer 2) stops it, not the guard.
  [
    'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r',
    all(ok('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT n FROM r')),
  ],
  ["SELECT 'it''s; DROP TABLE t' AS s", all(ok("SELECT 'it''s; DROP TABLE t' AS s"))],
  ["SELECT a FROM t WHERE note = 'FOR UPDATE; DELETE FROM t'", all(ok("SELECT a FROM t WHERE note = 'FOR UPDATE; DELETE FROM t'"))],
  ['SELECT "delete", "update" FROM t', { postgres: ok('SELECT "delete", "update" FROM t'), sqlite: ok('SELECT "delete", "update" FROM t') }],
  ['SELECT `delete`, `update` FROM t', { mysql: ok('SELECT `delete`, `update` FROM t') }],
  ['SELECT t.update FROM t', { mysql: ok('SELECT t.update FROM t') }],
  ["SELECT replace(name, 'a', 'b') FROM t", all(ok("SELECT replace(name, 'a', 'b') FROM t"))],
  ["SELECT insert('abc', 1, 1, 'x')", { mysql: ok("SELECT insert('abc', 1, 1, 'x')") }],
  ['SELECT sleep_minutes, load_file_id FROM t', all(ok('SELECT sleep_minutes, load_file_id FROM t'))],
  ['SELECT pg_sleep_total FROM t', { postgres: ok('SELECT pg_sleep_total FROM t') }],
  ["SELECT * FROM pragma_table_info('t')", { sqlite: ok("SELECT * FROM pragma_table_info('t')") }],
  // current_setting reads server configuration: refused since the allowlist (sql-guard.functions.test.ts).
  ['SELECT version(), current_database(), current_user', { postgres: ok('SELECT version(), current_database(), current_user') }],
  ['SELECT rolname FROM pg_roles', { postgres: ok('SELECT rolname FROM pg_roles') }],
  ['SELECT count(*) FROM pg_catalog.pg_class', { postgres: ok('SELECT count(*) FROM pg_catalog.pg_class') }],
  [
    'SELECT table_name FROM information_schema.tables',
    { postgres: ok('SELECT table_name FROM information_schema.tables'), mysql: ok('SELECT table_name FROM information_schema.tables') },
  ],
  ['SELECT 1 -- ; DROP TABLE t', all(ok('SELECT 1'))],
  // `--1` is a comment in PostgreSQL and SQLite, but minus minus one in MySQL: nothing to strip there.
  ['SELECT 1 --1', { postgres: ok('SELECT 1'), sqlite: ok('SELECT 1'), mysql: ok('SELECT 1 --1') }],
  ['SELECT 1 # a MySQL comment', { mysql: ok('SELECT 1') }],
  ["SELECT 'é' AS \"naïve\" ; -- ünïcode", { postgres: ok("SELECT 'é' AS \"naïve\""), sqlite: ok("SELECT 'é' AS \"naïve\"") }],
  ["SELECT 'é' AS `naïve` ; -- ünïcode", { mysql: ok("SELECT 'é' AS `naïve`") }],
  ["SELECT '/*! not a comment */' AS s", { mysql: ok("SELECT '/*! not a comment */' AS s") }],
  ["SELECT a FROM t WHERE b LIKE '%\\_%'", { mysql: ok("SELECT a FROM t WHERE b LIKE '%\\_%'") }],
  ['SELECT a FROM t ORDER BY a NULLS LAST LIMIT 2', { postgres: ok('SELECT a FROM t ORDER BY a NULLS LAST LIMIT 2', true), sqlite: ok('SELECT a FROM t ORDER BY a NULLS LAST LIMIT 2', true) }],
  ['SELECT name, RANK() OVER (ORDER BY x DESC) AS r FROM t', all(ok('SELECT name, RANK() OVER (ORDER BY x DESC) AS r FROM t'))],
  ["SELECT GROUP_CONCAT(a ORDER BY a SEPARATOR ',') FROM t", { mysql: ok("SELECT GROUP_CONCAT(a ORDER BY a SEPARATOR ',') FROM t") }],
];

const guard = new ParserSqlGuard();

describe('ParserSqlGuard lets read-only queries through', () => {
  for (const [input, expectations] of CASES) {
    for (const [dialect, expected] of Object.entries(expectations) as [Dialect, Accepted][]) {
      it(`${dialect}: ${JSON.stringify(input)}`, async () => {
        expect(await guard.check(dialect, input)).toEqual({ ok: true, ...expected });
      });
    }
  }

  it('loads its parsers once and is ready for every dialect after warmUp', async () => {
    const fresh = new ParserSqlGuard();
    await fresh.warmUp();
    const verdicts = await Promise.all((['postgres', 'mysql', 'sqlite'] as const).map((d) => fresh.check(d, 'SELECT 2')));
    expect(verdicts).toEqual([ok('SELECT 2'), ok('SELECT 2'), ok('SELECT 2')].map((v) => ({ ok: true, ...v })));
  });
});
