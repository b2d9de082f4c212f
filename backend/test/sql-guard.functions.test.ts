import { describe, expect, it } from 'vitest';
import { ParserSqlGuard } from '../src/sql-guard/index.js';

/**
 * PostgreSQL runs a function however the query names it: a call, `ROWS FROM`, a function in FROM, and
 * field notation — `(arg).func` and `rel.func` run `func(arg)` when `func` is not a column. Every hostile
 * function below, in every spelling, in every clause, must be refused with its name in the reason.
 */
const guard = new ParserSqlGuard();

interface Hostile {
  /** The name the reason must show. */
  name: string;
  /** Arguments of a call. */
  args: string;
  /** The one argument of field notation, already cast so PostgreSQL finds the function. */
  fieldArg: string;
}

const HOSTILE: Hostile[] = [
  { name: 'pg_read_file', args: "'/etc/passwd'", fieldArg: "'/etc/passwd'::text" },
  { name: 'pg_read_binary_file', args: "'/etc/passwd'", fieldArg: "'/etc/passwd'::text" },
  { name: 'pg_ls_dir', args: "'.'", fieldArg: "'.'::text" },
  { name: 'pg_stat_file', args: "'postgresql.conf'", fieldArg: "'postgresql.conf'::text" },
  { name: 'pg_advisory_lock', args: '1', fieldArg: '1::bigint' },
  { name: 'pg_try_advisory_lock', args: '1', fieldArg: '1::bigint' },
  { name: 'pg_stat_reset_shared', args: "'bgwriter'", fieldArg: "'bgwriter'::text" },
  { name: 'pg_stat_reset_single_table_counters', args: "'t'::regclass", fieldArg: "'t'::regclass" },
  { name: 'dblink_connect', args: "'dbname=x'", fieldArg: "'dbname=x'::text" },
  { name: 'dblink_exec', args: "'DELETE FROM t'", fieldArg: "'DELETE FROM t'::text" },
  { name: 'dblink', args: "'SELECT 1'", fieldArg: "'SELECT 1'::text" },
  { name: 'lo_import', args: "'/etc/passwd'", fieldArg: "'/etc/passwd'::text" },
  { name: 'lo_from_bytea', args: "0, 'x'", fieldArg: "'x'::bytea" },
  { name: 'nextval', args: "'s'", fieldArg: "'s'::regclass" },
  { name: 'currval', args: "'s'", fieldArg: "'s'::regclass" },
  { name: 'set_config', args: "'work_mem', '1GB', false", fieldArg: "'x'::text" },
  { name: 'current_setting', args: "'data_directory'", fieldArg: "'data_directory'::text" },
  { name: 'pg_terminate_backend', args: '1', fieldArg: '1' },
  { name: 'pg_cancel_backend', args: '1', fieldArg: '1' },
  { name: 'pg_sleep', args: '10', fieldArg: '10::float8' },
  { name: 'query_to_xml', args: "'select 1', true, true, ''", fieldArg: "'x'::text" },
  { name: 'pg_reload_conf', args: '', fieldArg: "'x'::text" },
  { name: 'txid_current', args: '', fieldArg: "'x'::text" },
  { name: 'get_raw_page', args: "'pg_authid', 0", fieldArg: "'pg_authid'::text" },
];

/** Spellings of one name: as is, upper case, mixed case, double-quoted, schema-qualified. */
function spellings(name: string): { label: string; call: string; field: string }[] {
  const mixed = name.replace(/(^|_)([a-z])/g, (_m, sep: string, ch: string) => sep + ch.toUpperCase());
  return [
    { label: 'plain', call: name, field: name },
    { label: 'upper', call: name.toUpperCase(), field: name.toUpperCase() },
    { label: 'mixed', call: mixed, field: mixed },
    { label: 'quoted', call: `"${name}"`, field: `"${name}"` },
    { label: 'quoted upper', call: `"${name.toUpperCase()}"`, field: `"${name.toUpperCase()}"` },
    { label: 'qualified', call: `pg_catalog.${name}`, field: name },
    { label: 'quoted qualified', call: `"pg_catalog"."${name}"`, field: `"${name}"` },
    { label: 'public', call: `public.${name}`, field: name },
  ];
}

/** Clauses an expression can sit in. `{X}` is replaced by the expression. */
const CLAUSES: [label: string, template: string][] = [
  ['select list', 'SELECT {X}'],
  ['select list, aliased', 'SELECT {X} AS v FROM t'],
  ['WHERE', 'SELECT a FROM t WHERE {X} IS NOT NULL'],
  ['ORDER BY', 'SELECT a FROM t ORDER BY {X}'],
  ['GROUP BY', 'SELECT count(*) FROM t GROUP BY {X}'],
  ['HAVING', 'SELECT a FROM t GROUP BY a HAVING {X} IS NOT NULL'],
  ['CTE', 'WITH c AS (SELECT {X} AS v) SELECT * FROM c'],
  ['recursive CTE', 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE {X} IS NULL) SELECT * FROM r'],
  ['subquery in FROM', 'SELECT * FROM (SELECT {X} AS v) s'],
  ['scalar subquery', 'SELECT (SELECT {X})'],
  ['EXISTS', 'SELECT 1 WHERE EXISTS (SELECT {X})'],
  ['IN list', 'SELECT a FROM t WHERE a IN ({X})'],
  ['LATERAL', 'SELECT * FROM t, LATERAL (SELECT {X} AS v) l'],
  ['JOIN ON', 'SELECT * FROM t JOIN t u ON {X} IS NOT NULL'],
  ['CASE', 'SELECT CASE WHEN a > 0 THEN {X} END FROM t'],
  ['function argument', 'SELECT length({X}::text)'],
  ['COALESCE', 'SELECT coalesce({X}::text, a::text) FROM t'],
  ['window PARTITION BY', 'SELECT row_number() OVER (PARTITION BY {X}) FROM t'],
  ['named window', 'SELECT sum(a) OVER w FROM t WINDOW w AS (ORDER BY {X})'],
  ['aggregate FILTER', 'SELECT count(*) FILTER (WHERE {X} IS NOT NULL) FROM t'],
  ['aggregate ORDER BY', 'SELECT string_agg(a::text, \',\' ORDER BY {X}) FROM t'],
  ['VALUES', 'VALUES ({X})'],
  ['LIMIT', 'SELECT a FROM t LIMIT (SELECT count(*) FROM (SELECT {X}) s)'],
  ['UNION branch', 'SELECT 1 UNION SELECT {X}'],
  ['DISTINCT ON', 'SELECT DISTINCT ON ({X}) a FROM t'],
  ['JSON_TABLE-free row constructor', 'SELECT ROW({X}, 1)'],
  ['array constructor', 'SELECT ARRAY[{X}]'],
  ['cast argument', 'SELECT CAST({X} AS text)'],
];

function call(h: Hostile, spelled: string): string {
  return `${spelled}(${h.args})`;
}

async function reasonOf(sql: string): Promise<string> {
  const verdict = await guard.check('postgres', sql);
  return verdict.ok ? `ACCEPTED: ${sql}` : verdict.reason;
}

function expected(h: Hostile, spelled: string): RegExp {
  // A quoted upper-case name is a different (nonexistent) function: refused all the same, under that name.
  return new RegExp(`function (public\\.)?${h.name} is not allowed`, 'i');
  void spelled;
}

describe('PostgreSQL: hostile functions are refused in every syntax, spelling and clause', () => {
  for (const h of HOSTILE) {
    it(`${h.name}: called, in every spelling and every clause`, async () => {
      const failures: string[] = [];
      for (const s of spellings(h.name)) {
        for (const [clause, template] of CLAUSES) {
          const sql = template.replace('{X}', call(h, s.call));
          const reason = await reasonOf(sql);
          if (!expected(h, s.call).test(reason)) failures.push(`${s.label} / ${clause}: ${reason}`);
        }
      }
      expect(failures).toEqual([]);
    });

    it(`${h.name}: field notation (arg).func and rel.func, in every spelling and every clause`, async () => {
      const failures: string[] = [];
      for (const s of spellings(h.name)) {
        const forms = [`(${h.fieldArg}).${s.field}`, `((${h.fieldArg})).${s.field}`, `(${h.fieldArg}).pg_catalog.${s.field}`, `t.${s.field}`, `public.t.${s.field}`, `t.${s.field}.x`];
        for (const form of forms) {
          for (const [clause, template] of CLAUSES) {
            const sql = template.replace('{X}', form);
            const reason = await reasonOf(sql);
            if (!expected(h, s.field).test(reason)) failures.push(`${s.label} / ${form} / ${clause}: ${reason}`);
          }
        }
      }
      expect(failures).toEqual([]);
    });

    it(`${h.name}: in FROM, ROWS FROM, LATERAL and joins`, async () => {
      const failures: string[] = [];
      for (const s of spellings(h.name)) {
        for (const sql of [
          `SELECT * FROM ${call(h, s.call)}`,
          `SELECT * FROM ${call(h, s.call)} AS f`,
          `SELECT * FROM ${call(h, s.call)} WITH ORDINALITY AS f`,
          `SELECT * FROM ROWS FROM (${call(h, s.call)}) AS f`,
          `SELECT * FROM ROWS FROM (generate_series(1, 2), ${call(h, s.call)}) AS f`,
          `SELECT * FROM t, LATERAL ${call(h, s.call)} AS f`,
          `SELECT * FROM t CROSS JOIN LATERAL ROWS FROM (${call(h, s.call)}) f`,
          `SELECT * FROM t LEFT JOIN ${call(h, s.call)} f ON true`,
        ]) {
          const reason = await reasonOf(sql);
          if (!expected(h, s.call).test(reason)) failures.push(`${s.label}: ${sql} → ${reason}`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('names the function and why in the reason', async () => {
    expect(await reasonOf("SELECT ('/etc/passwd'::text).pg_read_file")).toBe('function pg_read_file is not allowed (reads server files)');
    expect(await reasonOf('SELECT (1::bigint).pg_advisory_lock')).toBe('function pg_advisory_lock is not allowed (takes an advisory lock)');
    expect(await reasonOf("SELECT ('x'::text).current_setting")).toBe('function current_setting is not allowed (reads server settings)');
    expect(await reasonOf('SELECT my_report(1)')).toBe(
      'function my_report is not allowed (not a built-in function known to be safe for read-only queries; the connection’s owner can allow a function of their own by name)',
    );
  });

  it('refuses unknown TABLESAMPLE methods and keeps the built-in ones', async () => {
    expect(await reasonOf('SELECT * FROM t TABLESAMPLE evil (10)')).toContain('function evil is not allowed');
    expect((await guard.check('postgres', 'SELECT * FROM t TABLESAMPLE BERNOULLI (10) REPEATABLE (1)')).ok).toBe(true);
    expect((await guard.check('postgres', 'SELECT * FROM t TABLESAMPLE system (10)')).ok).toBe(true);
  });
});

describe('PostgreSQL: user-defined functions run only when the connection allows them by name', () => {
  const check = (sql: string, allowedFunctions: string[] = []) => guard.check('postgres', sql, { allowedFunctions });

  it('refuses a function that is neither built in nor allowed, in any syntax', async () => {
    for (const sql of ['SELECT my_fn(1)', 'SELECT * FROM my_fn(1)', 'SELECT * FROM ROWS FROM (my_fn(1)) f', 'SELECT a FROM t ORDER BY my_fn(a)']) {
      expect(await check(sql)).toMatchObject({ ok: false, reason: expect.stringContaining('function my_fn is not allowed') });
    }
  });

  it('runs an allowed one, matching the schema exactly as allowed', async () => {
    expect((await check('SELECT my_fn(1)', ['my_fn'])).ok).toBe(true);
    expect((await check('SELECT MY_FN(1)', ['my_fn'])).ok).toBe(true);
    expect((await check('SELECT * FROM my_fn(1)', [' My_Fn '])).ok).toBe(true);
    expect((await check('SELECT public.my_fn(1)', ['public.my_fn'])).ok).toBe(true);
    expect(await check('SELECT public.my_fn(1)', ['my_fn'])).toMatchObject({ ok: false, reason: expect.stringContaining('function public.my_fn is not allowed') });
    expect(await check('SELECT my_fn(1)', ['public.my_fn'])).toMatchObject({ ok: false, reason: expect.stringContaining('function my_fn is not allowed') });
    expect(await check('SELECT other.my_fn(1)', ['public.my_fn'])).toMatchObject({ ok: false, reason: expect.stringContaining('function other.my_fn is not allowed') });
    // A built-in name in another schema is that schema's function, not the built-in.
    expect(await check('SELECT public.lower(a) FROM t')).toMatchObject({ ok: false, reason: expect.stringContaining('function public.lower is not allowed') });
  });

  it('never lets the owner allow a denied or unsafe function', async () => {
    expect(await check("SELECT pg_read_file('/etc/passwd')", ['pg_read_file'])).toMatchObject({ ok: false });
    expect(await check("SELECT public.dblink_exec('DELETE FROM t')", ['public.dblink_exec'])).toMatchObject({ ok: false });
    expect(await check("SELECT ('s'::regclass).nextval", ['nextval'])).toMatchObject({ ok: false });
    expect(await check("SELECT current_setting('data_directory')", ['current_setting'])).toMatchObject({ ok: false });
    expect(await check("SELECT public.get_raw_page('pg_authid', 0)", ['public.get_raw_page'])).toMatchObject({ ok: false });
  });
});

describe('PostgreSQL: (expr).name is decided by the allowlist', () => {
  // (q).crosstab ran the SQL text in q (tablefunc), past the guard, in a red-team test: on a value that is not
  // a row, (expr).name is a call, and the guard cannot know the type statically.
  for (const sql of [
    "SELECT (q).crosstab FROM (SELECT 'SELECT pg_read_file(''/etc/passwd'')'::text AS q) s",
    "SELECT (q).crosstab2 FROM (SELECT 'SELECT 1'::text AS q) s",
    "SELECT s.q.crosstab FROM (SELECT 'SELECT 1'::text AS q) s",
    "SELECT (q).connectby FROM (SELECT 'x'::text AS q) s",
    "SELECT (q).my_exec_text FROM (SELECT 'DELETE FROM t'::text AS q) s",
    'SELECT (t).a FROM t',
    'SELECT (t.c).x FROM t',
    "SELECT (ROW(1, 'x')::my_type).label",
  ]) {
    it(`refuses ${sql}`, async () => {
      expect(await guard.check('postgres', sql)).toMatchObject({ ok: false });
    });
  }

  it('lets the owner allow a function of their own in that form', async () => {
    expect(await guard.check('postgres', "SELECT (q).my_fn FROM (SELECT 'x'::text AS q) s", { allowedFunctions: ['my_fn'] })).toMatchObject({ ok: true });
  });
});

describe('PostgreSQL: legitimate field selection and analytics keep working', () => {
  const accepted = [
    'SELECT t.a, t.b FROM t',
    'SELECT public.t.a FROM public.t',
    'SELECT (c).* FROM t',
    'SELECT (arr)[1], (j -> \'k\') FROM t',
    "SELECT ('abc'::text).upper",
    'SELECT (date_col).date_trunc FROM t',
    'SELECT t.name, t.version, t.date, t.length, t.position, t.left FROM t',
    'SELECT t.date_in, t.time_out FROM t',
    'SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a) FROM t',
    'SELECT mode() WITHIN GROUP (ORDER BY a), percentile_disc(ARRAY[0.25, 0.75]) WITHIN GROUP (ORDER BY a) FROM t',
    'SELECT a, rank() OVER (PARTITION BY b ORDER BY a DESC), lag(a) OVER w FROM t WINDOW w AS (ORDER BY a)',
    "SELECT date_trunc('month', d), extract(year FROM d), d AT TIME ZONE 'UTC', to_char(d, 'YYYY-MM') FROM t",
    "SELECT jsonb_build_object('a', a), j ->> 'k', jsonb_path_query(j, '$.a') FROM t",
    "SELECT substring(s FROM 1 FOR 3), trim(both ' ' FROM s), position('a' IN s), s SIMILAR TO 'a%', overlay(s placing 'x' from 1) FROM t",
    'SELECT round(avg(a)::numeric, 2), stddev(a), corr(a, b), width_bucket(a, 0, 100, 10) FROM t',
    "SELECT 'x'::regclass, 'now'::timestamptz, COLLATION FOR (s), s IS NORMALIZED FROM t",
    'SELECT * FROM generate_series(1, 10) g, unnest(ARRAY[1, 2]) WITH ORDINALITY u(v, n)',
    'SELECT random(), gen_random_uuid(), clock_timestamp(), now(), current_user, current_database(), version()',
    "SELECT * FROM jsonb_to_recordset('[{\"a\":1}]') AS x(a int)",
    "SELECT xpath('/a/text()', '<a>x</a>'::xml), to_tsvector('english', s) @@ plainto_tsquery('x') FROM t",
  ];
  for (const sql of accepted) {
    it(`accepts ${sql}`, async () => {
      const verdict = await guard.check('postgres', sql);
      expect(verdict.ok ? 'ok' : verdict.reason).toBe('ok');
    });
  }
});

describe('server activity and settings are not readable (red-team finding)', () => {
  for (const [dialect, sql] of [
    ['postgres', 'SELECT query FROM pg_stat_activity'],
    ['postgres', 'SELECT query FROM pg_catalog.pg_stat_activity'],
    ['postgres', "SELECT setting FROM pg_settings WHERE name = 'data_directory'"],
    ['postgres', 'SELECT * FROM "PG_SETTINGS"'],
    ['mysql', 'SELECT info FROM information_schema.processlist'],
    ['mysql', 'SELECT sql_text FROM performance_schema.events_statements_history'],
  ] as const) {
    it(`refuses ${dialect}: ${sql}`, async () => {
      const verdict = await guard.check(dialect, sql);
      expect(verdict).toMatchObject({ ok: false });
    });
  }
});
