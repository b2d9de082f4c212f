import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { connectionFields, createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * The attacks of issue 13 sent through the real API and read-only executor to a real PostgreSQL database,
 * as a superuser (the role for which every one of them works), then the database's state checked: rows,
 * sequences, advisory locks, statistics and large objects are exactly as before.
 */
let db: PgDatabase;
let app: TestApp;
let user: ApiClient;
let connectionId: string;
let hasDblink = false;

const url = new URL(TEST_PG_URL);
const dsn = () => `dbname=${db.name} host=${url.hostname} port=${url.port || 5432} user=${decodeURIComponent(url.username || 'postgres')}`;

async function direct<R extends Record<string, unknown>>(fn: (client: pg.Client) => Promise<R[]>): Promise<R[]> {
  const target = new URL(TEST_PG_URL);
  target.pathname = `/${db.name}`;
  const client = new pg.Client({ connectionString: target.toString() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

interface DatabaseState {
  rows: unknown;
  victimRows: unknown;
  sequence: unknown;
  advisoryLocks: unknown;
  databaseStatsReset: unknown;
  bgwriterStatsReset: unknown;
  tableCounters: unknown;
  largeObjects: unknown;
}

async function state(): Promise<DatabaseState> {
  const one = async (sql: string, params: unknown[] = []) => (await db.query(sql, params))[0];
  return {
    rows: await one("SELECT count(*)::int AS n, md5(string_agg(a::text || b, ',' ORDER BY a)) AS digest FROM t"),
    victimRows: await one('SELECT count(*)::int AS n FROM victim'),
    sequence: await one('SELECT last_value::int, is_called FROM s'),
    advisoryLocks: await one("SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND d.datname = current_database()"),
    databaseStatsReset: await one('SELECT stats_reset FROM pg_stat_database WHERE datname = $1', [db.name]),
    bgwriterStatsReset: await one('SELECT stats_reset FROM pg_stat_bgwriter'),
    tableCounters: await one("SELECT seq_scan + idx_scan > 0 OR n_tup_ins > 0 AS counted FROM pg_stat_user_tables WHERE relname = 't'"),
    largeObjects: await one('SELECT count(*)::int AS n FROM pg_largeobject_metadata'),
  };
}

beforeAll(async () => {
  db = await createPgDatabase('guardexec');
  await direct(async (c) => {
    await c.query(`
    CREATE TABLE t (a int PRIMARY KEY, b text);
    INSERT INTO t SELECT g, 'row ' || g FROM generate_series(1, 20) g;
    CREATE TABLE victim (a int);
    INSERT INTO victim SELECT generate_series(1, 5);
    CREATE SEQUENCE s;
    SELECT nextval('s');
    CREATE FUNCTION public.row_total() RETURNS bigint LANGUAGE sql STABLE AS 'SELECT count(*) FROM t';
    CREATE FUNCTION public.add_row() RETURNS int LANGUAGE sql AS 'INSERT INTO t VALUES (1000, ''added'') RETURNING a';
    ANALYZE t;
  `);
    return [];
  });
  const available = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM pg_available_extensions WHERE name = 'dblink'");
  if (available[0]!.n > 0) {
    await db.query('CREATE EXTENSION IF NOT EXISTS dblink');
    hasDblink = true;
  }
  // So the table's statistics counters are non-zero and a reset would show (a session flushes them as it ends).
  await direct(async (c) => (await c.query('SELECT count(*) FROM t')).rows);

  app = await startTestApp();
  user = new ApiClient(app.url);
  await user.register();
  const created = await user.post('/api/connections', { name: 'guard target', ...connectionFields(db.target()) });
  expect(created.status).toBe(201);
  connectionId = created.body.id;
});

afterAll(async () => {
  await app?.close();
  await db?.drop();
});

const query = (sql: string) => user.post(`/api/connections/${connectionId}/query`, { sql });

describe('PostgreSQL: the field-notation attacks are real on this server (so the guard is what stops them)', () => {
  it('reads a server file, takes an advisory lock and writes through dblink inside a READ ONLY transaction', async () => {
    const [file] = await direct(async (c) => {
      await c.query('BEGIN READ ONLY');
      const r = await c.query("SELECT ('PG_VERSION'::text).pg_read_file AS content");
      await c.query('ROLLBACK');
      return r.rows;
    });
    expect(String(file!.content)).toMatch(/^\d+\s*$/);

    const locks = await direct(async (c) => {
      await c.query('BEGIN READ ONLY');
      await c.query('SELECT (4242::bigint).pg_advisory_lock');
      await c.query('ROLLBACK');
      // The rollback does not release it: it outlives the request on a pooled session.
      const held = await c.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()");
      await c.query('SELECT pg_advisory_unlock_all()');
      return held.rows;
    });
    expect(locks[0]!.n).toBe(1);

    if (!hasDblink) return;
    await direct(async (c) => {
      await c.query('BEGIN READ ONLY');
      await c.query(`SELECT (${pg.escapeLiteral(dsn())}::text).dblink_connect`);
      await c.query("SELECT ('DELETE FROM victim WHERE a = 5'::text).dblink_exec");
      await c.query('ROLLBACK');
      return [];
    });
    expect(await db.query('SELECT count(*)::int AS n FROM victim')).toEqual([{ n: 4 }]);
  });
});

describe('PostgreSQL: through the read-only executor every form is refused and nothing changes', () => {
  it('refuses each attack with the function named, and leaves rows, sequences, locks, statistics and large objects as they were', async () => {
    const before = await state();
    const conn = pg.escapeLiteral(dsn());
    const attacks: [sql: string, name: string][] = [
      ["SELECT ('/etc/passwd'::text).pg_read_file", 'pg_read_file'],
      ["SELECT (('PG_VERSION'::text)).\"PG_READ_FILE\"", 'pg_read_file'],
      ["SELECT a FROM t WHERE ('PG_VERSION'::text).pg_read_file IS NOT NULL", 'pg_read_file'],
      ["SELECT a FROM t ORDER BY ('.'::text).pg_ls_dir", 'pg_ls_dir'],
      ["SELECT count(*) FROM t GROUP BY ('.'::text).Pg_Ls_Dir", 'pg_ls_dir'],
      ["WITH c AS (SELECT ('.'::text).pg_ls_dir AS f) SELECT * FROM c", 'pg_ls_dir'],
      ['SELECT (4242::bigint).pg_advisory_lock', 'pg_advisory_lock'],
      ['SELECT a FROM t WHERE (SELECT (4242::bigint).pg_try_advisory_lock)', 'pg_try_advisory_lock'],
      ['SELECT pg_catalog.pg_advisory_lock(4242)', 'pg_advisory_lock'],
      ['SELECT * FROM t, LATERAL (SELECT "pg_advisory_xact_lock"(t.a)) l', 'pg_advisory_xact_lock'],
      ["SELECT ('bgwriter'::text).pg_stat_reset_shared", 'pg_stat_reset_shared'],
      ['SELECT a FROM t HAVING (SELECT pg_stat_reset()) IS NULL', 'pg_stat_reset'],
      ["SELECT ('t'::regclass).pg_stat_reset_single_table_counters", 'pg_stat_reset_single_table_counters'],
      ["SELECT ('/etc/passwd'::text).lo_import", 'lo_import'],
      ["SELECT * FROM ROWS FROM (lo_from_bytea(0, 'x'))", 'lo_from_bytea'],
      ["SELECT ('s'::regclass).nextval", 'nextval'],
      ["SELECT row_number() OVER (PARTITION BY setval('s', 100)) FROM t", 'setval'],
      [`SELECT (${conn}::text).dblink_connect`, 'dblink_connect'],
      ["SELECT ('DELETE FROM t'::text).dblink_exec", 'dblink_exec'],
      [`SELECT * FROM dblink(${conn}, 'DELETE FROM t RETURNING a') AS d(a int)`, 'dblink'],
      [`SELECT public.dblink_exec(${conn}, 'DELETE FROM t')`, 'public.dblink_exec'],
      ["SELECT set_config('default_transaction_read_only', 'off', false)", 'set_config'],
      ["SELECT ('select 1'::text).query_to_xml", 'query_to_xml'],
      ['SELECT row_total()', 'row_total'],
    ];
    const failures: string[] = [];
    for (const [sql, name] of attacks) {
      const response = await query(sql);
      const message: string = response.body?.error?.message ?? '';
      if (response.status !== 400 || response.body?.error?.code !== 'SQL_REJECTED' || !message.toLowerCase().includes(`function ${name.toLowerCase()} is not allowed`)) {
        failures.push(`${sql} → ${response.status} ${JSON.stringify(response.body).slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await state()).toEqual(before);
  });

  it('still runs analytics, field selection on real columns and safe built-ins', async () => {
    const response = await query(
      "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY a) AS median, t.a AS first_a, ('abc'::text).upper AS up, date_trunc('day', now()) IS NOT NULL AS ok FROM t GROUP BY t.a ORDER BY t.a LIMIT 1",
    );
    expect(response.status).toBe(200);
    expect(response.body.rows).toEqual([{ median: 1, first_a: 1, up: 'ABC', ok: true }]);
  });
});

describe('PostgreSQL: functions of the owner’s own run only when the connection allows them by name', () => {
  it('saves and returns allowed_functions, refusing names the guard would never allow', async () => {
    for (const bad of [['pg_read_file'], ['public.dblink_exec'], ['nextval'], ['x; DROP TABLE t'], ['"quoted"']]) {
      const response = await user.patch(`/api/connections/${connectionId}`, { allowed_functions: bad });
      expect(response.status, JSON.stringify(bad)).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_FAILED');
    }
    const saved = await user.patch(`/api/connections/${connectionId}`, { allowed_functions: ['public.row_total', 'public.add_row'] });
    expect(saved.status).toBe(200);
    expect(saved.body.allowed_functions).toEqual(['public.row_total', 'public.add_row']);
    expect((await user.get(`/api/connections/${connectionId}`)).body.allowed_functions).toEqual(['public.row_total', 'public.add_row']);
  });

  it('runs an allowed function under exactly its allowed name; a writing one is still stopped by the READ ONLY transaction', async () => {
    const before = await state();
    const ok = await query('SELECT public.row_total() AS n');
    expect(ok.status).toBe(200);
    expect(Number(ok.body.rows[0].n)).toBe(20);

    const unqualified = await query('SELECT row_total()');
    expect(unqualified.status).toBe(400);
    expect(unqualified.body.error.message).toContain('function row_total is not allowed');

    const writes = await query('SELECT public.add_row()');
    expect(writes.status).toBe(422);
    expect(writes.body.error.code).toBe('QUERY_FAILED');
    expect(await state()).toEqual(before);

    // Allowing one name never opens a denied one.
    const denied = await query("SELECT ('PG_VERSION'::text).pg_read_file, public.row_total()");
    expect(denied.status).toBe(400);
  });
});
