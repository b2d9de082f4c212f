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
  type MysqlAccount,
  type MysqlDatabase,
  mysqlTarget,
  type PgDatabase,
  pgTarget,
  sqliteChinookPath,
  sqliteTarget,
  uniqueName,
} from './support/fixtures.js';

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

/**
 * The local PostgreSQL trusts every local login, so a wrong password cannot be shown with it. This speaks just
 * enough of the protocol to ask for a cleartext password and refuse it the way PostgreSQL does (SQLSTATE 28P01).
 */
async function pgRefusingServer(): Promise<{ port: number; received: string[]; close(): Promise<void> }> {
  const received: string[] = [];
  const server = net.createServer((socket) => {
    socket.on('error', () => undefined);
    let buffer = Buffer.alloc(0);
    let stage: 'startup' | 'password' = 'startup';
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (stage === 'startup' && buffer.length >= 4 && buffer.length >= buffer.readInt32BE(0)) {
        buffer = buffer.subarray(buffer.readInt32BE(0));
        stage = 'password';
        const auth = Buffer.alloc(9);
        auth.write('R', 0);
        auth.writeInt32BE(8, 1);
        auth.writeInt32BE(3, 5); // AuthenticationCleartextPassword
        socket.write(auth);
      } else if (stage === 'password' && buffer.length >= 5 && buffer.length >= 1 + buffer.readInt32BE(1)) {
        received.push(buffer.subarray(5, 1 + buffer.readInt32BE(1) - 1).toString());
        const fields = ['SFATAL', 'VFATAL', 'C28P01', 'Mpassword authentication failed for user "alice"'];
        const body = Buffer.concat([...fields.map((f) => Buffer.from(`${f}\0`)), Buffer.from([0])]);
        const header = Buffer.alloc(5);
        header.write('E', 0);
        header.writeInt32BE(body.length + 4, 1);
        socket.end(Buffer.concat([header, body]));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

afterAll(async () => {
  await Promise.all(open.map((a) => a.close()));
});

describe('reaching the server', () => {
  it.each(['postgres', 'mysql'] as const)('%s: a server that accepts but never answers fails within the connect timeout', async (dialect) => {
    const server = await silentServer();
    try {
      const target = { id: 'silent', dialect, host: '127.0.0.1', port: server.port, database: 'x', user: 'alice', password: SECRET };
      const started = Date.now();
      const err = await connectionError(adapter(target, 800));
      const elapsed = Date.now() - started;
      expect(err.code).toBe('CONNECTION_FAILED');
      expect(err.message).toBe(`could not reach 127.0.0.1:${server.port} within 0.8 s`);
      expect(elapsed).toBeGreaterThanOrEqual(700);
      expect(elapsed).toBeLessThan(2500);
    } finally {
      await server.close();
    }
  });

  it.each(['postgres', 'mysql'] as const)('%s: a closed port is reported as refused', async (dialect) => {
    const server = await silentServer();
    const port = server.port;
    await server.close();
    const err = await connectionError(adapter({ id: 'refused', dialect, host: '127.0.0.1', port, database: 'x', user: 'alice', password: SECRET }));
    expect(err.code).toBe('CONNECTION_FAILED');
    expect(err.message).toContain(`could not connect to 127.0.0.1:${port}: connection refused`);
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
