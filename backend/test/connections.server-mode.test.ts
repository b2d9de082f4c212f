import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HostResolver } from '../src/connections/reach/host-resolver.js';
import { ApiClient } from './support/api-client.js';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { pgRefusingServer } from './support/fake-pg-login.js';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const SECRET = 'Tr0ub4dor&3-moved';
const PG_PORT = Number(new URL(TEST_PG_URL).port || 5432);
const UNREACHABLE = /^could not connect to .*: the server is unreachable, not accepting connections, or not allowed from this server$/;

/** This machine's own non-loopback addresses (the storage server answers on them too). */
function ownAddresses(): string[] {
  return Object.values(os.networkInterfaces())
    .flat()
    .filter((i) => i && !i.internal)
    .map((i) => i!.address);
}

function storageUrl(db: PgDatabase): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${db.name}`;
  return url.toString();
}

/**
 * Server mode: the app's storage is a PostgreSQL database on the same server as the users' test databases,
 * and the operator allows loopback (as a single-machine install would). A user still must not reach the storage.
 */
describe('server mode: the storage database is unreachable under any name', () => {
  let storage: PgDatabase;
  let userDb: PgDatabase;
  let app: TestApp;
  let api: ApiClient;
  const own = ownAddresses();
  // Names the test resolves itself (the system resolver knows nothing of .aigis.test).
  const dns = new Map<string, string>([['storage-alias.aigis.test', '127.0.0.1']]);

  beforeAll(async () => {
    [storage, userDb] = await Promise.all([createPgDatabase('storage'), createPgDatabase('userdb')]);
    await userDb.query('CREATE TABLE t (x int); INSERT INTO t VALUES (7)');
    app = await startTestApp({
      DATABASE_URL: storageUrl(storage),
      MASTER_ENCRYPTION_KEY: 'ef'.repeat(32),
      CONNECTION_ALLOW_HOSTS: ['127.0.0.0/8', '::1', '0.0.0.0', 'localhost', '*.aigis.test', '198.51.100.0/24', ...own].join(','),
      CONNECT_TIMEOUT_MS: '1000',
    });
    const resolver = app.app.get(HostResolver);
    const system = resolver.lookup.bind(resolver);
    vi.spyOn(resolver, 'lookup').mockImplementation(async (host) => {
      const address = dns.get(host);
      return address ? [{ address, family: address.includes(':') ? 6 : 4 }] : system(host);
    });
    api = new ApiClient(app.url);
    await api.register();
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([storage?.drop(), userDb?.drop()]);
  });

  it('refuses to save a connection to the storage database by any alias of this machine', async () => {
    const aliases = ['127.0.0.1', 'localhost', '127.0.0.2', '127.1', '::1', '0.0.0.0', '::ffff:127.0.0.1', 'storage-alias.aigis.test', ...own];
    for (const host of aliases) {
      for (const database of [storage.name, storage.name.toUpperCase()]) {
        const response = await api.post('/api/connections', { name: 'x', dialect: 'postgres', host, port: PG_PORT, database, user: 'postgres' });
        expect(response.status, `${host}/${database}`).toBe(400);
        expect(response.body.error.message).toMatch(/^host: connections to .* are not allowed on this server$/);
      }
    }
    const byUrl = await api.post('/api/connections', { url: `postgres://postgres@127.0.0.1:${PG_PORT}/${storage.name}` });
    expect(byUrl.status).toBe(400);
    expect((await api.get('/api/connections')).body).toEqual([]);
  });

  it('allows another database on the same server, and refuses a PATCH that points it at the storage', async () => {
    const created = await api.post('/api/connections', { name: 'mine', dialect: 'postgres', host: '127.0.0.1', port: PG_PORT, database: userDb.name, user: 'postgres' });
    expect(created.status).toBe(201);
    const query = await api.post(`/api/connections/${created.body.id}/query`, { sql: 'SELECT x FROM t' });
    expect(query.body.rows).toEqual([{ x: 7 }]);
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      const moved = await api.patch(`/api/connections/${created.body.id}`, { host, database: storage.name });
      expect(moved.status, host).toBe(400);
    }
    expect((await api.get(`/api/connections/${created.body.id}`)).body.database).toBe(userDb.name);
  });

  it('checks again at connect: a name that resolved elsewhere when saved and to the storage now is refused', async () => {
    // The address our resolver answers is the one the driver connects to (the system resolver knows no such name).
    dns.set('mine.aigis.test', '127.0.0.1');
    const mine = await api.post('/api/connections', { name: 'mine', dialect: 'postgres', host: 'mine.aigis.test', port: PG_PORT, database: userDb.name, user: 'postgres' });
    expect((await api.post(`/api/connections/${mine.body.id}/query`, { sql: 'SELECT x FROM t' })).body.rows).toEqual([{ x: 7 }]);

    dns.set('rebind.aigis.test', '198.51.100.10');
    const created = await api.post('/api/connections', { name: 'rebind', dialect: 'postgres', host: 'rebind.aigis.test', port: PG_PORT, database: storage.name, user: 'postgres' });
    expect(created.status).toBe(201);
    dns.set('rebind.aigis.test', '127.0.0.1');
    const read = await api.post(`/api/connections/${created.body.id}/query`, { sql: 'SELECT email, password_hash FROM users' });
    expect(read.status).toBe(422);
    expect(read.body.error.code).toBe('CONNECTION_FAILED');
    expect(read.body.error.message).toMatch(UNREACHABLE);
    const test = await api.post(`/api/connections/${created.body.id}/test`);
    expect(test.body.error.message).toMatch(UNREACHABLE);
    expect(JSON.stringify([read.body, test.body])).not.toMatch(/@example\.com|scrypt/);
  });

  it('never sends a moved connection its stored password: the new host gets none (a fake server records cleartext)', async () => {
    const [first, second] = await Promise.all([pgRefusingServer(), pgRefusingServer()]);
    try {
      const created = await api.post('/api/connections', { name: 'fake', dialect: 'postgres', host: '127.0.0.1', port: first.port, database: 'x', user: 'alice', password: SECRET });
      expect(created.body.has_password).toBe(true);
      await api.post(`/api/connections/${created.body.id}/test`);
      expect(first.received).toEqual([SECRET]); // the right server gets it

      for (const patch of [{ port: second.port }, { host: 'localhost' }, { user: 'bob' }, { url: `postgres://alice@127.0.0.1:${second.port}/x` }]) {
        const moved = await api.patch(`/api/connections/${created.body.id}`, patch);
        expect(moved.status, JSON.stringify(patch)).toBe(200);
        expect(moved.body.has_password).toBe(false);
      }
      const test = await api.post(`/api/connections/${created.body.id}/test`);
      expect(test.status).toBe(422);
      expect(second.received).not.toContain(SECRET);
      const stored = await storage.query<{ sealed_password: string | null }>('SELECT sealed_password FROM connections WHERE id = $1', [created.body.id]);
      expect(stored[0].sealed_password).toBeNull();

      // A new password given with the move is the one sent.
      await api.patch(`/api/connections/${created.body.id}`, { port: second.port, password: 'new-one' });
      await api.post(`/api/connections/${created.body.id}/test`);
      expect(second.received).toEqual(['', 'new-one']); // no password at all while it had none
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});

describe('server mode without an allow list: this machine and link-local are refused', () => {
  let storage: PgDatabase;
  let app: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    storage = await createPgDatabase('storage_noallow');
    app = await startTestApp({ DATABASE_URL: storageUrl(storage), MASTER_ENCRYPTION_KEY: 'ef'.repeat(32), CONNECTION_ALLOW_HOSTS: '' });
    api = new ApiClient(app.url);
    await api.register();
  });

  afterAll(async () => {
    await app?.close();
    await storage?.drop();
  });

  it.each(['127.0.0.1', 'localhost', '::1', '169.254.169.254', 'fe80::1', '0.0.0.0', ...ownAddresses()])('refuses %s', async (host) => {
    const response = await api.post('/api/connections', { name: 'x', dialect: 'postgres', host, port: PG_PORT, database: 'postgres', user: 'postgres' });
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(/not allowed on this server/);
  });

  it('allows an address elsewhere (saving checks the policy, not whether the server answers)', async () => {
    const response = await api.post('/api/connections', { name: 'x', dialect: 'postgres', host: '198.51.100.1', port: 5432, database: 'd', user: 'u' });
    expect(response.status).toBe(201);
  });
});
