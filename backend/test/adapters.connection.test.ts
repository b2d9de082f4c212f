import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/common/app-error.js';
import type { ConnectionTarget, DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import {
  createMysqlAccount,
  createMysqlDatabase,
  createPgDatabase,
  createPgRole,
  loadMysqlChinook,
  loadPgChinook,
  mysqlAdminQuery,
  type MysqlAccount,
  type MysqlDatabase,
  mysqlTarget,
  type PgDatabase,
  pgTarget,
  sqliteChinookPath,
  sqliteTarget,
  uniqueName,
} from './support/fixtures.js';
import { pgRefusingServer } from './support/fake-pg-login.js';
import { TargetPolicy } from '../src/connections/reach/target-policy.js';

const SECRET = 'Tr0ub4dor&3-secret';
const open: DialectAdapter[] = [];

function adapter(target: ConnectionTarget, connectTimeoutMs = 5000, poolMax = 2): DialectAdapter {
  const a = createAdapter(target, { connectTimeoutMs, poolMax });
  open.push(a);
  return a;
}

async function connectionError(a: DialectAdapter): Promise<AppError> {
  try {
    await a.executeReadOnly('SELECT 1', { maxRows: 1, timeoutMs: 10_000 });
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('expected the connection to fail');
}

/** A TCP server that accepts connections and never says a word (a firewall or a hung server looks like this). */
async function silentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

afterAll(async () => {
  await Promise.all(open.map((a) => a.close()));
});

describe('reaching the server', () => {
  /**
   * A filtered port (accepts, never answers), a closed port, something that is not a database, a name that does
   * not resolve and a target the policy refuses must read the same and take about the same time: otherwise the
   * connection form is a port scanner for whatever the server can reach.
   */
  it.each(['postgres', 'mysql'] as const)('%s: unreachable, refused, not a database, unresolvable and not allowed all read the same', async (dialect) => {
    const silent = await silentServer();
    const closed = await silentServer();
    await closed.close();
    const httpSockets = new Set<net.Socket>();
    const http = net.createServer((s) => {
      httpSockets.add(s);
      s.on('error', () => undefined);
      s.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const httpPort = (http.address() as net.AddressInfo).port;
    const policy = new TargetPolicy({ mode: 'embedded', deny: '127.0.0.1/32', storage: null });
    try {
      const cases: [string, number, boolean][] = [
        ['127.0.0.1', silent.port, false],
        ['127.0.0.1', closed.port, false],
        ['127.0.0.1', httpPort, false],
        ['no-such-host.invalid', 5432, false],
        ['127.0.0.1', silent.port, true],
      ];
      for (const [host, port, denied] of cases) {
        const started = Date.now();
        const a = createAdapter(
          { id: `reach-${port}`, dialect, host, port, database: 'x', user: 'alice', password: SECRET },
          { connectTimeoutMs: 800, poolMax: 1, ...(denied ? { reach: (h, p, d) => policy.check(h, p, d) } : {}) },
        );
        open.push(a);
        const err = await connectionError(a);
        const elapsed = Date.now() - started;
        expect(err.code, `${host}:${port}`).toBe('CONNECTION_FAILED');
        expect(err.message).toBe(`could not connect to ${host}:${port}: the server is unreachable, not accepting connections, or not allowed from this server`);
        expect(JSON.stringify(err.toBody())).not.toContain(SECRET);
        expect(elapsed, `${host}:${port} answered after ${elapsed} ms`).toBeGreaterThanOrEqual(780);
        expect(elapsed).toBeLessThan(2500);
      }
    } finally {
      await silent.close();
      for (const s of httpSockets) s.destroy();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });

  it.each(['postgres', 'mysql'] as const)('%s: connects to the address the policy checked, and checks again at every new connection', async (dialect) => {
    // The system resolver knows no .aigis.test name: a connection that works went to the address we checked.
    let answer = '127.0.0.1';
    const lookups: string[] = [];
    const policy = new TargetPolicy({
      mode: 'embedded',
      deny: '127.0.0.2',
      storage: null,
      lookup: async (host) => {
        lookups.push(host);
        return host === 'db.aigis.test' ? [{ address: answer, family: 4 }] : [];
      },
    });
    const real = dialect === 'postgres' ? pgTarget('postgres') : mysqlTarget(null);
    const a = createAdapter({ ...real, id: `checked-${dialect}`, host: 'db.aigis.test' }, { connectTimeoutMs: 800, poolMax: 1, reach: (h, p, d) => policy.check(h, p, d) });
    open.push(a);
    expect((await a.executeReadOnly('SELECT 1 AS one', { maxRows: 1, timeoutMs: 5000 })).rows).toEqual([{ one: 1 }]);
    expect(lookups).toContain('db.aigis.test');
    await a.close();
    // A new connection after the name moved to a denied address is refused, like any unreachable server.
    answer = '127.0.0.2';
    const again = createAdapter({ ...real, id: `checked-${dialect}-2`, host: 'db.aigis.test' }, { connectTimeoutMs: 800, poolMax: 1, reach: (h, p, d) => policy.check(h, p, d) });
    open.push(again);
    const err = await connectionError(again);
    expect(err.message).toMatch(/^could not connect to db\.aigis\.test:\d+: the server is unreachable/);
  });

  it('postgres: a refused password says so and never repeats it', async () => {
    const server = await pgRefusingServer();
    try {
      const a = adapter({ id: 'pw', dialect: 'postgres', host: '127.0.0.1', port: server.port, database: 'x', user: 'alice', password: SECRET });
      const err = await connectionError(a);
      expect(server.received).toEqual([SECRET]); // the client really sent it…
      expect(err.code).toBe('CONNECTION_FAILED');
      expect(err.message).toBe('password authentication failed for user "alice"');
      expect(JSON.stringify(err.toBody())).not.toContain(SECRET); // …and the error never carries it
      expect(err.stack ?? '').not.toContain(SECRET);
    } finally {
      await server.close();
    }
  });

  it('postgres: a missing database and a missing role are named', async () => {
    const missing = uniqueName('missing');
    const noDb = await connectionError(adapter(pgTarget(missing, { id: 'nodb' })));
    expect(noDb.code).toBe('CONNECTION_FAILED');
    expect(noDb.message).toBe(`database "${missing}" does not exist`);
    const noRole = await connectionError(adapter(pgTarget('postgres', { id: 'norole', user: 'nobody_here', password: SECRET })));
    expect(noRole.code).toBe('CONNECTION_FAILED');
    expect(noRole.message).toBe('role "nobody_here" does not exist');
  });

  it('sqlite: a missing file fails as a connection problem', async () => {
    const err = await connectionError(adapter(sqliteTarget('/nonexistent/dir/none.sqlite', { id: 'nofile' })));
    expect(err.code).toBe('CONNECTION_FAILED');
    expect(err.message).toMatch(/cannot open the SQLite file \/nonexistent\/dir\/none\.sqlite/);
  });
});

describe('mysql: logging in', () => {
  let account: MysqlAccount;
  let db: MysqlDatabase;

  beforeAll(async () => {
    db = await createMysqlDatabase('login');
    account = await createMysqlAccount(db.name);
  });
  afterAll(async () => {
    await account?.drop();
    await db?.drop();
  });

  it('a wrong password says so and never repeats it', async () => {
    const err = await connectionError(adapter(mysqlTarget(db.name, { id: 'mypw', user: account.user, password: SECRET })));
    expect(err.code).toBe('CONNECTION_FAILED');
    expect(err.message).toMatch(new RegExp(`^access denied for user ${account.user}: wrong user name or password`));
    expect(JSON.stringify(err.toBody())).not.toContain(SECRET);
  });

  it('the right password works, a missing database is named', async () => {
    const ok = adapter(mysqlTarget(db.name, { id: 'myok', user: account.user, password: account.password }));
    expect((await ok.executeReadOnly('SELECT 1 AS one', { maxRows: 1, timeoutMs: 5000 })).rows).toEqual([{ one: 1 }]);
    const missing = uniqueName('missing');
    const err = await connectionError(adapter(mysqlTarget(missing, { id: 'mynodb' })));
    expect(err.code).toBe('CONNECTION_FAILED');
    expect(err.message).toBe(`database ${missing} does not exist`);
  });
});

describe('probe: server version and whether the credential can write', () => {
  let pgDb: PgDatabase;
  let myDb: MysqlDatabase;
  const cleanup: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    [pgDb, myDb] = await Promise.all([createPgDatabase('probe'), createMysqlDatabase('probe')]);
    await Promise.all([loadPgChinook(pgDb), loadMysqlChinook(myDb)]);
  });
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
    await Promise.all([pgDb?.drop(), myDb?.drop()]);
  });

  it('postgres: a superuser can write', async () => {
    const probe = await adapter(pgDb.target({ id: 'probe-super' })).probe();
    expect(probe.serverVersion).toMatch(/^PostgreSQL \d+\.\d+/);
    expect(probe.readOnlyRole).toBe(false);
    expect(probe.warnings[0]).toMatch(/^this role can write \(it is a superuser; .*\); Aigis only reads, but a read-only role is safer$/);
  });

  it('postgres: a role with SELECT only is read-only; one with INSERT is named per privilege', async () => {
    const reader = await createPgRole(pgDb, { canWrite: false });
    cleanup.push(reader.drop);
    const writer = await createPgRole(pgDb, { canWrite: true });
    cleanup.push(writer.drop);
    const readProbe = await adapter(pgDb.target({ id: 'probe-reader', user: reader.name })).probe();
    expect(readProbe).toMatchObject({ readOnlyRole: true, warnings: [] });
    const writeProbe = await adapter(pgDb.target({ id: 'probe-writer', user: writer.name })).probe();
    expect(writeProbe.readOnlyRole).toBe(false);
    expect(writeProbe.warnings[0]).toBe(
      'this role can write (INSERT on 11 tables, UPDATE on 11 tables, DELETE on 11 tables); Aigis only reads, but a read-only role is safer',
    );
  });

  it('mysql: an account with ALL PRIVILEGES can write; a SELECT-only one is read-only; INSERT is named', async () => {
    const root = await adapter(myDb.target({ id: 'probe-root' })).probe();
    expect(root.serverVersion).toMatch(/^(MariaDB|MySQL) \d+\.\d+/);
    expect(root.readOnlyRole).toBe(false);
    expect(root.warnings[0]).toMatch(/ALL PRIVILEGES on \*\.\*/);

    const reader = await createMysqlAccount(myDb.name, 'SELECT');
    cleanup.push(reader.drop);
    const readProbe = await adapter(myDb.target({ id: 'probe-myreader', user: reader.user, password: reader.password })).probe();
    expect(readProbe).toMatchObject({ readOnlyRole: true, warnings: [] });

    const writer = await createMysqlAccount(myDb.name, 'SELECT, INSERT');
    cleanup.push(writer.drop);
    const writeProbe = await adapter(myDb.target({ id: 'probe-mywriter', user: writer.user, password: writer.password })).probe();
    expect(writeProbe.readOnlyRole).toBe(false);
    expect(writeProbe.warnings[0]).toMatch(/^this account can write \(INSERT on `[^`]+`\.\*\); Aigis only reads, but a read-only account is safer$/);
  });

  it('postgres: elevated privileges are reported (superuser, server files, programs), a plain reader has none', async () => {
    const superProbe = await adapter(pgDb.target({ id: 'elev-super' })).probe();
    expect(superProbe.elevatedPrivileges).toEqual(['superuser', 'read_server_files', 'write_server_files', 'run_server_programs', 'grant_privileges']);
    const reader = await createPgRole(pgDb, { canWrite: false });
    cleanup.push(reader.drop);
    expect((await adapter(pgDb.target({ id: 'elev-reader', user: reader.name })).probe()).elevatedPrivileges).toEqual([]);
    const fileReader = await createPgRole(pgDb, { canWrite: false });
    cleanup.push(async () => {
      await pgDb.query(`REVOKE pg_read_server_files, pg_execute_server_program FROM "${fileReader.name}"`);
      await fileReader.drop();
    });
    await pgDb.query(`GRANT pg_read_server_files, pg_execute_server_program TO "${fileReader.name}"`);
    const fileProbe = await adapter(pgDb.target({ id: 'elev-files', user: fileReader.name })).probe();
    expect(fileProbe.elevatedPrivileges).toEqual(['read_server_files', 'run_server_programs']);
  });

  it('mysql: elevated privileges are reported (ALL on *.*, FILE, GRANT OPTION), a plain reader has none', async () => {
    expect((await adapter(myDb.target({ id: 'elev-root' })).probe()).elevatedPrivileges).toEqual(
      expect.arrayContaining(['superuser', 'read_server_files', 'write_server_files', 'grant_privileges']),
    );
    const reader = await createMysqlAccount(myDb.name, 'SELECT');
    cleanup.push(reader.drop);
    expect((await adapter(myDb.target({ id: 'elev-myreader', user: reader.user, password: reader.password })).probe()).elevatedPrivileges).toEqual([]);
    const filer = await createMysqlAccount(myDb.name, 'SELECT');
    cleanup.push(filer.drop);
    await mysqlAdminQuery(`GRANT FILE ON *.* TO '${filer.user}'@'%'`);
    await mysqlAdminQuery(`GRANT SELECT ON \`${myDb.name}\`.* TO '${filer.user}'@'%' WITH GRANT OPTION`);
    const probe = await adapter(myDb.target({ id: 'elev-myfile', user: filer.user, password: filer.password })).probe();
    expect(probe.elevatedPrivileges).toEqual(['read_server_files', 'write_server_files', 'grant_privileges']);
  });

  it('sqlite: always read-only', async () => {
    const probe = await adapter(sqliteTarget(sqliteChinookPath(), { id: 'probe-lite' })).probe();
    expect(probe).toMatchObject({ readOnlyRole: true, warnings: [] });
    expect(probe.serverVersion).toMatch(/^SQLite 3\.\d+/);
  });

  it.each(['postgres', 'mysql'] as const)('%s: the pool never opens more than poolMax connections', async (dialect) => {
    const a = createAdapter(dialect === 'postgres' ? pgDb.target({ id: 'bounded' }) : myDb.target({ id: 'bounded' }), {
      connectTimeoutMs: 5000,
      poolMax: 2,
    });
    open.push(a);
    const sleep = dialect === 'postgres' ? 'SELECT pg_sleep(0.4) AS s' : 'SELECT SLEEP(0.4) AS s';
    const started = Date.now();
    await Promise.all([1, 2, 3, 4].map(() => a.executeReadOnly(sleep, { maxRows: 1, timeoutMs: 10_000 })));
    // Four 0.4 s statements over two connections take two rounds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(780);
  });
});
