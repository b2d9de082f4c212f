import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import { delay } from '../src/connections/dialects/execution-control.js';
import { createMysqlDatabase, createPgDatabase, type MysqlDatabase, mysqlAdminQuery, type PgDatabase, uniqueName } from './support/fixtures.js';

/**
 * Nothing a user statement does may outlive its request on a pooled session. The guard refuses these functions
 * now; here they run straight through the adapter (which never parses), as a statement that slipped past the
 * guard would. One pooled connection, so the next statement runs on the same session when it was kept.
 */
const run = (a: DialectAdapter, sql: string) => a.executeReadOnly(sql, { maxRows: 10, timeoutMs: 5000 });
const open: DialectAdapter[] = [];
function single(target: Parameters<typeof createAdapter>[0]): DialectAdapter {
  const a = createAdapter(target, { connectTimeoutMs: 5000, poolMax: 1 });
  open.push(a);
  return a;
}

afterAll(async () => {
  await Promise.all(open.map((a) => a.close()));
});

describe('postgres: the pooled session is reset after every user statement', () => {
  let db: PgDatabase;
  beforeAll(async () => {
    db = await createPgDatabase('hygiene');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('session advisory locks are released (seen from another session), on the same reused session', async () => {
    const a = single(db.target({ id: 'pg-locks' }));
    const first = await run(a, 'SELECT pg_backend_pid() AS pid, pg_advisory_lock(424242) AS l, pg_advisory_lock_shared(434343) AS s');
    const pid = first.rows[0].pid as number;
    const held = await db.query<{ n: string }>(`SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = $1`, [pid]);
    expect(Number(held[0].n)).toBe(0);
    // Another session can take the lock at once.
    expect((await db.query<{ got: boolean }>('SELECT pg_try_advisory_lock(424242) AS got, pg_advisory_unlock(424242)'))[0].got).toBe(true);
    const next = await run(a, `SELECT pg_backend_pid() AS pid, (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()) AS mine`);
    expect(next.rows[0]).toEqual({ pid, mine: 0 });
  });

  it('session settings and WITH HOLD state do not reach the next statement', async () => {
    const a = single(db.target({ id: 'pg-settings' }));
    await run(a, `SELECT set_config('aigis.leak', 'secret', false) AS v`);
    const next = await run(a, `SELECT current_setting('aigis.leak', true) AS v, current_setting('statement_timeout') AS t`);
    expect(next.rows[0].v ?? '').toBe('');
    expect(next.rows[0].t).toBe('5s'); // SET LOCAL of this statement; the session default came back
  });

  it('dblink connections are closed (the session is ended when dblink or postgres_fdw is installed)', async () => {
    await db.query('CREATE EXTENSION IF NOT EXISTS dblink');
    const marker = uniqueName('dblink_leak');
    const a = single(db.target({ id: 'pg-dblink' }));
    const first = await run(a, `SELECT pg_backend_pid() AS pid, dblink_connect('leak', 'dbname=${db.name} application_name=${marker}') AS c`);
    expect(first.rows[0].c).toBe('OK');
    const remaining = async () =>
      Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = $1', [marker]))[0].n);
    for (let i = 0; i < 50 && (await remaining()) > 0; i++) await delay(50);
    expect(await remaining()).toBe(0);
    const next = await run(a, 'SELECT pg_backend_pid() AS pid, dblink_get_connections() AS links');
    expect(next.rows[0].links).toBeNull();
    expect(next.rows[0].pid).not.toBe(first.rows[0].pid);
  });
});

describe('mysql: the pooled session is reset after every user statement', () => {
  let db: MysqlDatabase;
  beforeAll(async () => {
    db = await createMysqlDatabase('hygiene');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('GET_LOCK locks are released (seen from another session) and user variables are gone, on the same reused session', async () => {
    const lock = uniqueName('lock');
    const a = single(db.target({ id: 'my-hygiene' }));
    const first = await run(a, `SELECT CONNECTION_ID() AS id, GET_LOCK('${lock}', 0) AS got, @leak := 'secret' AS v`);
    expect(first.rows[0].got).toBe(1);
    const [free] = await mysqlAdminQuery<{ free: number }>(`SELECT IS_FREE_LOCK('${lock}') AS free`);
    expect(free.free).toBe(1);
    const next = await run(a, `SELECT CONNECTION_ID() AS id, @leak AS v, @@session.tx_read_only AS ro`);
    expect(next.rows[0]).toEqual({ id: first.rows[0].id, v: null, ro: 1 });
  });

  it('a temporary table does not survive the request (MySQL allows one in a READ ONLY transaction; MariaDB refuses it)', async () => {
    const a = single(db.target({ id: 'my-temp' }));
    const created = await run(a, 'CREATE TEMPORARY TABLE leak_tmp (x INT)').then(
      () => true,
      (err: { message?: string }) => {
        expect(err.message).toMatch(/READ ONLY transaction/);
        return false;
      },
    );
    if (created) await expect(run(a, 'SELECT * FROM leak_tmp')).rejects.toMatchObject({ details: { class: 'table_not_found' } });
  });
});
