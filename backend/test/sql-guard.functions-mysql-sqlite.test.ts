import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ParserSqlGuard } from '../src/sql-guard/index.js';
import { MYSQL_FUNCTIONS } from '../src/sql-guard/mysql-functions.js';
import { SQLITE_FUNCTIONS } from '../src/sql-guard/sqlite-functions.js';

/**
 * MySQL/MariaDB and SQLite decide functions by an allowlist too, on the dialect's own tokens: whatever
 * syntax names them (ODBC escapes, backticks, brackets, a comment before the parenthesis, a PRAGMA
 * table-valued function without parentheses), in every clause.
 */
const guard = new ParserSqlGuard();
type Dialect = 'mysql' | 'sqlite';

const CLAUSES: [label: string, template: string][] = [
  ['select list', 'SELECT {X} AS v'],
  ['WHERE', 'SELECT a FROM t WHERE {X} IS NOT NULL'],
  ['ORDER BY', 'SELECT a FROM t ORDER BY {X}'],
  ['GROUP BY', 'SELECT count(*) FROM t GROUP BY {X}'],
  ['HAVING', 'SELECT a FROM t GROUP BY a HAVING {X} IS NOT NULL'],
  ['CTE', 'WITH c AS (SELECT {X} AS v) SELECT * FROM c'],
  ['CTE with columns', 'WITH c (v) AS (SELECT {X}) SELECT * FROM c'],
  ['derived table', 'SELECT * FROM (SELECT {X} AS v) AS s'],
  ['scalar subquery', 'SELECT (SELECT {X}) AS v'],
  ['EXISTS', 'SELECT 1 AS v FROM t WHERE EXISTS (SELECT {X})'],
  ['JOIN ON', 'SELECT * FROM t JOIN u ON {X} IS NOT NULL'],
  ['CASE', 'SELECT CASE WHEN a > 0 THEN {X} END AS v FROM t'],
  ['nested call', 'SELECT length({X}) AS v'],
  ['window PARTITION BY', 'SELECT row_number() OVER (PARTITION BY {X} ORDER BY a) AS v FROM t'],
  ['UNION branch', 'SELECT 1 AS v UNION SELECT {X}'],
];

async function reasonOf(dialect: Dialect, sql: string, allowedFunctions: string[] = []): Promise<string> {
  const verdict = await guard.check(dialect, sql, { allowedFunctions });
  return verdict.ok ? `ACCEPTED: ${sql}` : verdict.reason;
}

async function refusedEverywhere(dialect: Dialect, call: string, name: string): Promise<string[]> {
  const failures: string[] = [];
  for (const [clause, template] of CLAUSES) {
    const sql = template.replace('{X}', call);
    const reason = await reasonOf(dialect, sql);
    if (!reason.toLowerCase().includes(`function ${name} is not allowed`)) failures.push(`${clause}: ${reason}`);
  }
  return failures;
}

describe('MySQL/MariaDB: functions outside the allowlist are refused in every syntax and clause', () => {
  const hostile: [call: string, name: string][] = [
    ["LOAD_FILE('/etc/passwd')", 'load_file'],
    ["{fn LOAD_FILE('/etc/passwd')}", 'load_file'],
    ["`load_file`('/etc/passwd')", 'load_file'],
    ["load_file /* gap */ ('/etc/passwd')", 'load_file'],
    ["sys_exec('id')", 'sys_exec'],
    ["SYS_EVAL('id')", 'sys_eval'],
    ["sys_get('PATH')", 'sys_get'],
    ["sys_set('PATH', '/tmp')", 'sys_set'],
    ["`mydb`.`sys_exec`('id')", 'sys_exec'],
    ["service_get_write_locks('ns', 'lock', 0)", 'service_get_write_locks'],
    ["version_tokens_lock_exclusive('t', 0)", 'version_tokens_lock_exclusive'],
    ["keyring_key_fetch('k')", 'keyring_key_fetch'],
    ["group_replication_set_as_primary('uuid')", 'group_replication_set_as_primary'],
    ['LAST_INSERT_ID(42)', 'last_insert_id'],
    ["GET_LOCK ('x', 10)", 'get_lock'],
    ['NEXTVAL(s)', 'nextval'],
    ['SETVAL(s, 100)', 'setval'],
    ['SLEEP(5)', 'sleep'],
    ['my_udf(1)', 'my_udf'],
    ['mydb.my_udf(1)', 'mydb.my_udf'],
  ];
  for (const [call, name] of hostile) {
    it(`refuses ${call}`, async () => {
      expect(await refusedEverywhere('mysql', call, name)).toEqual([]);
    });
  }

  it('refuses the other syntaxes that run something: sequences, INTO, PROCEDURE ANALYSE, executable comments', async () => {
    expect(await reasonOf('mysql', 'SELECT NEXT VALUE FOR s')).toContain('NEXT VALUE FOR is not allowed');
    expect(await reasonOf('mysql', "SELECT a FROM t INTO OUTFILE '/tmp/x'")).toContain('SELECT INTO is not allowed');
    expect(await reasonOf('mysql', 'SELECT a INTO @v FROM t')).toContain('SELECT INTO is not allowed');
    expect(await reasonOf('mysql', 'SELECT a FROM t PROCEDURE ANALYSE()')).toContain('function analyse is not allowed');
    expect(await reasonOf('mysql', "SELECT 1 /*!50000 , sys_exec('id') */")).toContain('executable comments');
  });

  it('runs a function of the owner’s only under exactly its allowed name', async () => {
    expect(await reasonOf('mysql', 'SELECT my_udf(1)', ['my_udf'])).toBe('ACCEPTED: SELECT my_udf(1)');
    expect(await reasonOf('mysql', 'SELECT mydb.my_udf(1)', ['mydb.my_udf'])).toBe('ACCEPTED: SELECT mydb.my_udf(1)');
    expect(await reasonOf('mysql', 'SELECT mydb.my_udf(1)', ['my_udf'])).toContain('function mydb.my_udf is not allowed');
    expect(await reasonOf('mysql', "SELECT LOAD_FILE('/etc/passwd')", ['load_file'])).toContain('function load_file is not allowed');
  });

  it('keeps analytics and the syntax around parentheses that calls nothing', async () => {
    for (const sql of [
      "SELECT DATE_FORMAT(d, '%Y-%m'), COUNT(DISTINCT a), ROUND(AVG(b), 2), GROUP_CONCAT(c ORDER BY c SEPARATOR ',') FROM t GROUP BY 1",
      'SELECT a, RANK() OVER (PARTITION BY b ORDER BY a DESC), LAG(a) OVER w FROM t WINDOW w AS (ORDER BY a)',
      "SELECT JSON_EXTRACT(j, '$.a'), JSON_UNQUOTE(j ->> '$.b'), ST_Distance(POINT(1, 2), POINT(3, 4)) FROM t",
      'SELECT CAST(a AS DECIMAL(10, 2)), CONVERT(b, CHAR(10)), CONVERT(c USING utf8mb4) FROM t',
      'WITH c (x, y) AS (SELECT 1, 2) SELECT x FROM c',
      'SELECT a FROM t WHERE a IN (1, 2) AND EXISTS (SELECT 1) AND b NOT IN (SELECT b FROM u)',
      "SELECT * FROM t WHERE MATCH (a) AGAINST ('x')",
      'SELECT LASTVAL(s)',
      'SELECT IF(a > 1, LEFT(b, 2), RIGHT(b, 2)), IFNULL(c, 0), TIMESTAMPDIFF(DAY, d, NOW()) FROM t',
    ]) {
      expect(await reasonOf('mysql', sql)).toBe(`ACCEPTED: ${sql}`);
    }
  });

  it('lists only names in lower case', () => {
    expect([...MYSQL_FUNCTIONS].filter((name) => name !== name.toLowerCase())).toEqual([]);
  });
});

describe('SQLite: functions outside the allowlist are refused in every syntax and clause', () => {
  const hostile: [call: string, name: string][] = [
    ["load_extension('/tmp/evil.so')", 'load_extension'],
    ["\"load_extension\"('/tmp/evil.so')", 'load_extension'],
    ["[load_extension]('/tmp/evil.so')", 'load_extension'],
    ["LOAD_EXTENSION /* gap */ ('/tmp/evil.so')", 'load_extension'],
    ["fts3_tokenizer('simple')", 'fts3_tokenizer'],
    ["readfile('/etc/passwd')", 'readfile'],
    ["writefile('/tmp/x', 'y')", 'writefile'],
    ["edit('x')", 'edit'],
    ["sqlite_log(1, 'x')", 'sqlite_log'],
    ['sqlite_compileoption_get(0)', 'sqlite_compileoption_get'],
    ['optimize(t)', 'optimize'],
    ['my_fn(1)', 'my_fn'],
  ];
  for (const [call, name] of hostile) {
    it(`refuses ${call}`, async () => {
      expect(await refusedEverywhere('sqlite', call, name)).toEqual([]);
    });
  }

  it('refuses table-valued functions outside the list, with or without parentheses', async () => {
    expect(await reasonOf('sqlite', 'SELECT * FROM pragma_database_list')).toContain('function pragma_database_list is not allowed');
    expect(await reasonOf('sqlite', 'SELECT file FROM pragma_database_list()')).toContain('function pragma_database_list is not allowed');
    expect(await reasonOf('sqlite', "SELECT 1 WHERE 'x' IN pragma_function_list")).toContain('function pragma_function_list is not allowed');
    expect(await reasonOf('sqlite', "SELECT * FROM fsdir('.')")).toContain('function fsdir is not allowed');
    expect(await reasonOf('sqlite', "SELECT * FROM zipfile('/tmp/a.zip')")).toContain('function zipfile is not allowed');
  });

  it('keeps analytics, JSON and schema table-valued functions, casts and CTE column lists', async () => {
    for (const sql of [
      "SELECT strftime('%Y', d), count(*), round(avg(b), 2), group_concat(c, ',') FROM t GROUP BY 1",
      'SELECT a, rank() OVER (ORDER BY a DESC NULLS LAST) FROM t',
      "SELECT j.value FROM t, json_each(t.j) AS j WHERE json_extract(t.j, '$.a') > 1",
      "SELECT name FROM pragma_table_info('t')",
      "SELECT 1 WHERE 2 IN json_each('[1, 2]')",
      'SELECT CAST(a AS VARCHAR(10)), CAST(b AS DECIMAL(10, 2)) FROM t',
      'WITH c (x) AS MATERIALIZED (SELECT 1) SELECT x FROM c',
      "SELECT iif(a > 1, upper(b), lower(b)), coalesce(c, 0), julianday('now') - julianday(d) FROM t",
    ]) {
      expect(await reasonOf('sqlite', sql)).toBe(`ACCEPTED: ${sql}`);
    }
  });

  it('allows only functions the bundled SQLite has, and every one of them outside the reviewed exclusions is on the list', () => {
    const db = new Database(':memory:');
    const bundled = new Set(db.prepare('SELECT DISTINCT name FROM pragma_function_list').all().map((row) => (row as { name: string }).name));
    const tableValued = [...SQLITE_FUNCTIONS].filter((name) => !bundled.has(name));
    // Every table-valued name that is not a function either runs here or is generate_series (a compile-time option).
    for (const name of tableValued) {
      if (name === 'generate_series') continue;
      const args = name.startsWith('pragma_') ? (name.includes('list') && !name.includes('index_list') && !name.includes('foreign_key') ? '' : "'sqlite_schema'") : "'[1]'";
      expect(() => db.prepare(`SELECT * FROM ${name}(${args})`).all(), name).not.toThrow();
    }
    const excluded = [...bundled].filter((name) => !SQLITE_FUNCTIONS.has(name)).sort();
    // A new SQLite version adding a function fails here: review it, then list or exclude it.
    expect(excluded).toEqual(
      [
        '->', '->>', 'fts3_tokenizer', 'fts5', 'fts5_get_locale', 'fts5_insttoken', 'fts5_locale', 'fts5_source_id', 'geopoly_debug',
        'load_extension', 'optimize', 'rtreecheck', 'rtreedepth', 'rtreenode', 'sqlite_compileoption_get', 'sqlite_compileoption_used', 'sqlite_log',
      ].sort(),
    );
    db.close();
  });
});
