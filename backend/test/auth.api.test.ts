import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AuthHousekeeping } from '../src/auth/auth-housekeeping.js';
import { PasswordHasher } from '../src/auth/password-hasher.js';
import { LoginFailuresRepository } from '../src/storage/repositories/login-failures.repository.js';
import { Clock } from '../src/common/clock.js';
import { loadConfig } from '../src/config/env.schema.js';
import { ApiClient } from './support/api-client.js';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Storage = 'sqlite' | 'postgres';

/** An app on the given app storage (PostgreSQL: a fresh database, dropped by `close`). */
async function startOn(storage: Storage, env: Record<string, string | undefined>): Promise<{ app: TestApp; close(): Promise<void> }> {
  let storageDb: PgDatabase | undefined;
  if (storage === 'postgres') {
    storageDb = await createPgDatabase('appstore');
    const url = new URL(TEST_PG_URL);
    url.pathname = `/${storageDb.name}`;
    env = { ...env, DATABASE_URL: url.toString(), MASTER_ENCRYPTION_KEY: 'ab'.repeat(32) };
  }
  const app = await startTestApp(env);
  return {
    app,
    async close() {
      await app.close();
      await storageDb?.drop();
    },
  };
}

/** Rows of the app database, whichever storage it is. */
async function appRows<T>(app: TestApp, sql: string): Promise<T[]> {
  if (app.config.DATABASE_URL) {
    const client = new pg.Client({ connectionString: app.config.DATABASE_URL });
    await client.connect();
    try {
      return (await client.query(sql)).rows as T[];
    } finally {
      await client.end();
    }
  }
  const db = new Database(`${app.dataDir}/aigis.sqlite`, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}

/** Moves the app's clock forward for the duration of `fn`. */
async function later<T>(app: TestApp, ms: number, fn: () => Promise<T>): Promise<T> {
  const clock = app.app.get(Clock);
  const realNow = clock.now.bind(clock);
  clock.now = () => new Date(realNow().getTime() + ms);
  try {
    return await fn();
  } finally {
    clock.now = realNow;
  }
}

/** A client at a given address (the app runs with TRUST_PROXY on, so X-Forwarded-For is believed). */
function from(api: ApiClient, address: string) {
  const headers = { 'x-forwarded-for': address };
  return {
    post: (path: string, body: unknown) => api.request('POST', path, body, { headers }),
    login: (email: string, password: string) => api.request('POST', '/api/auth/login', { email, password }, { headers }),
    register: (body: Record<string, unknown>) => api.request('POST', '/api/auth/register', body, { headers }),
  };
}

/** Stops the app's clock for the duration of `fn` (throttling waits are seconds; a loaded machine must not pass them). */
async function frozen<T>(app: TestApp, fn: () => Promise<T>): Promise<T> {
  const clock = app.app.get(Clock);
  const realNow = clock.now;
  const at = realNow.call(clock).getTime();
  clock.now = () => new Date(at);
  try {
    return await fn();
  } finally {
    clock.now = realNow;
  }
}

let addressCounter = 0;
/** A fresh documentation-range address per call, so per-client limits of one test do not touch another. */
function freshAddress(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(addressCounter / 250)}.${(addressCounter % 250) + 1}`;
}

/** The same migrations and repositories serve both app storages: every test runs on each. */
describe.each(['sqlite', 'postgres'] as const)('accounts, tokens and throttling (%s app storage)', (storage) => {
  let app: TestApp;
  let close: () => Promise<void>;
  let api: ApiClient;

  beforeAll(async () => {
    ({ app, close } = await startOn(storage, { LOGIN_MAX_FAILURES: '3', TRUST_PROXY: 'true' }));
    api = new ApiClient(app.url);
  });
  afterAll(() => close?.());

  it('registers (202, no token), logs in, answers me with the role, and logs out (the token stops working)', async () => {
    const email = `Ada.${Date.now()}@Example.com`;
    const registered = await api.post('/api/auth/register', { email, password: 'a long passphrase' });
    expect(registered.status).toBe(202);
    expect(registered.body).toEqual({ status: 'ok' });

    const login = await api.post('/api/auth/login', { email: email.toUpperCase(), password: 'a long passphrase' });
    expect(login.status).toBe(200);
    expect(login.body.token).toMatch(/^aig_/);
    expect(login.headers.get('set-cookie')).toBeNull();
    const client = api.as(login.body.token);
    const me = await client.get('/api/auth/me');
    expect(me.body).toEqual({ id: login.body.user.id, email: email.toLowerCase(), role: expect.stringMatching(/^(admin|member)$/) });

    const second = await api.post('/api/auth/login', { email, password: 'a long passphrase' });
    expect((await client.post('/api/auth/logout')).status).toBe(204);
    const after = await client.get('/api/auth/me');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UNAUTHORIZED');
    // The other session is untouched.
    expect((await api.as(second.body.token).get('/api/auth/me')).status).toBe(200);
  });

  it('stores only a memory-hard password hash and token hashes', async () => {
    const password = 'plaintext-never-stored';
    const user = await api.as().register(`hash-${Date.now()}@example.com`, password);
    const [row] = await appRows<{ password_hash: string }>(app, `SELECT password_hash FROM users WHERE id = '${user.id}'`);
    expect(row.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(row.password_hash).not.toContain(password);
    const tokens = await appRows<{ token_hash: string }>(app, `SELECT token_hash FROM auth_tokens WHERE user_id = '${user.id}'`);
    expect(tokens).toHaveLength(1);
    expect(tokens[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('explains bad input with codes, never a 500', async () => {
    const bad = await api.post('/api/auth/register', { email: 'not-an-email', password: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect(bad.body.error.message).toMatch(/email/);
    expect(bad.body.error.message).toMatch(/password: must be at least 8 characters/);
    expect((await api.post('/api/auth/register', {})).status).toBe(400);
    expect((await api.request('POST', '/api/auth/register', '[1,2')).body.error.code).toBe('VALIDATION_FAILED');
    expect((await api.post('/api/auth/login', { email: 'a@b.co', password: 'long enough', session: 'jar' })).status).toBe(400);
  });

  it('answers register the same for an existing email: status, body, the same hashing work, and the account is untouched', async () => {
    const email = `taken-${Date.now()}@example.com`;
    const hasher = app.app.get(PasswordHasher);
    const hash = vi.spyOn(hasher, 'hash');
    try {
      const fresh = await api.post('/api/auth/register', { email, password: 'the first password' });
      expect(hash).toHaveBeenCalledTimes(1);
      const again = await api.post('/api/auth/register', { email, password: 'an attacker password' });
      // The existing-email path pays the same scrypt hash, so time does not tell the two apart either.
      expect(hash).toHaveBeenCalledTimes(2);
      expect([again.status, again.body]).toEqual([fresh.status, fresh.body]);
      expect(again.headers.get('content-length')).toBe(fresh.headers.get('content-length'));
    } finally {
      hash.mockRestore();
    }
    expect((await api.post('/api/auth/login', { email, password: 'the first password' })).status).toBe(200);
    expect((await api.post('/api/auth/login', { email, password: 'an attacker password' })).status).toBe(401);
    const rows = await appRows<{ n: number | string }>(app, `SELECT COUNT(*) AS n FROM users WHERE email = '${email}'`);
    expect(Number(rows[0].n)).toBe(1);
  });

  it('slows down one (account, address) pair with a doubling wait (429 + Retry-After), never locks the account', () =>
    frozen(app, async () => {
      const email = `limited-${Date.now()}@example.com`;
      await api.as().register(email, 'the right one');
      const attacker = from(api, freshAddress());
      for (let i = 0; i < 3; i++) expect((await attacker.login(email, 'a wrong one')).status).toBe(401);

      const blocked = await attacker.login(email, 'the right one');
      expect(blocked.status).toBe(429);
      expect(blocked.body.error.code).toBe('RATE_LIMITED');
      expect(blocked.headers.get('retry-after')).toBe('1');
      expect(blocked.body.error.details).toEqual({ retry_after_s: 1 });

      // Another address logs in with the right password at once: the attacker cannot lock the owner out.
      const owner = from(api, freshAddress());
      expect((await owner.login(email, 'the right one')).status).toBe(200);

      // The wait doubles with each further failure from the attacker's address: 1 s, 2 s, 4 s …
      await later(app, 1_100, async () => expect((await attacker.login(email, 'wrong again')).status).toBe(401));
      const slower = await later(app, 1_200, () => attacker.login(email, 'the right one'));
      expect(slower.status).toBe(429);
      expect(Number(slower.headers.get('retry-after'))).toBe(2);
      // After the wait, the right password works from the attacker's address too (it is the owner's address in real life).
      expect((await later(app, 3_200, () => attacker.login(email, 'the right one'))).status).toBe(200);
    }));

  it('slows down an address that sprays many accounts, without touching other addresses', () =>
    frozen(app, async () => {
      const spray = from(api, freshAddress());
      // LOGIN_MAX_FAILURES × 4 free failures per address across accounts.
      for (let i = 0; i < 12; i++) expect((await spray.login(`victim-${i}-${Date.now()}@example.com`, 'guess guess')).status).toBe(401);
      const blocked = await spray.login(`fresh-${Date.now()}@example.com`, 'guess guess');
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect((await from(api, freshAddress()).login(`fresh-${Date.now()}@example.com`, 'guess guess')).status).toBe(401);
    }));

  it('believes X-Forwarded-For from the proxy when TRUST_PROXY is on: each address is its own client', () =>
    frozen(app, async () => {
      const email = `xff-on-${Date.now()}@example.com`;
      const first = freshAddress();
      for (let i = 0; i < 3; i++) expect((await from(api, first).login(email, 'wrong wrong')).status).toBe(401);
      expect((await from(api, first).login(email, 'wrong wrong')).status).toBe(429);
      // The last entry is the one our proxy appended; an entry the client wrote before it is not believed.
      expect((await from(api, `${first}, ${freshAddress()}`).login(email, 'wrong wrong')).status).toBe(401);
      expect((await from(api, `${freshAddress()}, ${first}`).login(email, 'wrong wrong')).status).toBe(429);
    }));

  it('sweeps failures and registration attempts older than their window (the tables stay bounded)', async () => {
    const email = `swept-${Date.now()}@example.com`;
    await from(api, freshAddress()).login(email, 'wrong wrong');
    const count = async () => Number((await appRows<{ n: number | string }>(app, `SELECT COUNT(*) AS n FROM login_failures WHERE email = '${email}'`))[0].n);
    expect(await count()).toBe(1);
    await app.app.get(AuthHousekeeping).sweep();
    expect(await count()).toBe(1);
    await later(app, (app.config.LOGIN_WINDOW_MINUTES + 1) * 60_000, () => app.app.get(AuthHousekeeping).sweep());
    expect(await count()).toBe(0);
    await later(app, 2 * 3_600_000, () => app.app.get(AuthHousekeeping).sweep());
    expect(Number((await appRows<{ n: number | string }>(app, 'SELECT COUNT(*) AS n FROM registration_attempts'))[0].n)).toBe(0);
  });

  it('sweeps tokens a day after they expired, and deletes a backlog in batches', async () => {
    const client = new ApiClient(app.url);
    const user = await client.register();
    const tokens = async () => Number((await appRows<{ n: number | string }>(app, `SELECT COUNT(*) AS n FROM auth_tokens WHERE user_id = '${user.id}'`))[0].n);
    expect(await tokens()).toBe(1);
    await later(app, (app.config.TOKEN_TTL_HOURS + 1) * 3_600_000, () => app.app.get(AuthHousekeeping).sweep());
    expect(await tokens()).toBe(1); // expired, but within the day it is kept (a clock skew must not log anyone out early)
    await later(app, (app.config.TOKEN_TTL_HOURS + 25) * 3_600_000, () => app.app.get(AuthHousekeeping).sweep());
    expect(await tokens()).toBe(0);

    for (let i = 0; i < 7; i++) expect((await from(api, freshAddress()).login(`backlog-${i}-${Date.now()}@example.com`, 'wrong wrong')).status).toBe(401);
    const failures = app.app.get(LoginFailuresRepository);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    // Batches of 3 (7 rows: 3 + 3 + 1), every other row of the table included.
    expect(await failures.deleteOlderThan(future, 3)).toBeGreaterThanOrEqual(7);
    expect(Number((await appRows<{ n: number | string }>(app, `SELECT COUNT(*) AS n FROM login_failures`))[0].n)).toBe(0);
  });

  it('expires tokens', async () => {
    const client = new ApiClient(app.url);
    await client.register();
    expect((await later(app, (app.config.TOKEN_TTL_HOURS + 1) * 3_600_000, () => client.get('/api/auth/me'))).status).toBe(401);
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  // Every route's "needs a session" check is generated from the OpenAPI document (routes.contract.test.ts).
  it('refuses forged, foreign-scheme and forged-cookie credentials', async () => {
    expect((await api.as().get('/api/health')).body).toEqual({ status: 'ok' });
    expect((await api.as('aig_forged').get('/api/connections')).status).toBe(401);
    expect((await api.as().request('GET', '/api/connections', undefined, { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await api.as().request('GET', '/api/connections', undefined, { headers: { cookie: 'aigis_session=aig_forged' } })).status).toBe(401);
  });
});

describe('TRUST_PROXY off (the default): X-Forwarded-For is not believed', () => {
  let app: TestApp;
  let api: ApiClient;
  beforeAll(async () => {
    app = await startTestApp({ LOGIN_MAX_FAILURES: '3', REGISTRATIONS_PER_HOUR: '3' });
    api = new ApiClient(app.url);
  });
  afterAll(() => app?.close());

  it('counts failures against the real address whatever X-Forwarded-For claims', () =>
    frozen(app, async () => {
      const email = `xff-off-${Date.now()}@example.com`;
      for (let i = 0; i < 3; i++) expect((await from(api, freshAddress()).login(email, 'wrong wrong')).status).toBe(401);
      // A fourth forged address does not make a fresh client.
      const blocked = await from(api, freshAddress()).login(email, 'wrong wrong');
      expect(blocked.status).toBe(429);
      expect(blocked.headers.get('retry-after')).toBe('1');
    }));

  it('limits registrations per real address, whatever X-Forwarded-For claims', async () => {
    for (let i = 0; i < 3; i++) expect((await from(api, freshAddress()).register({ email: `r${i}-${Date.now()}@example.com`, password: 'long enough' })).status).toBe(202);
    const blocked = await from(api, freshAddress()).register({ email: `r9-${Date.now()}@example.com`, password: 'long enough' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(3000);
    // An hour later the address may register again.
    expect((await later(app, 3_601_000, () => api.post('/api/auth/register', { email: `r10-${Date.now()}@example.com`, password: 'long enough' }))).status).toBe(202);
  });

  it('listens on loopback unless HOST says otherwise', () => {
    expect(app.config.TRUST_PROXY).toBe(false);
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
  });
});


describe.each(['sqlite', 'postgres'] as const)('registration modes, invites and roles (%s app storage)', (storage) => {
  let app: TestApp;
  let close: () => Promise<void>;
  let api: ApiClient;
  let admin: ApiClient;
  let adminId: string;

  beforeAll(async () => {
    // REGISTRATION unset: the default of the mode applies and an admin may change it.
    ({ app, close } = await startOn(storage, { REGISTRATION: undefined, REGISTRATIONS_PER_HOUR: '4', TRUST_PROXY: 'true' }));
    api = new ApiClient(app.url);
  });
  afterAll(() => close?.());

  /** Registers from a fresh address (the per-address limit is tested on its own). */
  const register = (body: Record<string, unknown>) => from(api, freshAddress()).register(body);

  it('lets the first account in whatever the mode, as the admin; the default mode is open embedded, invite in server mode', async () => {
    const info = await api.get('/api/auth/registration');
    expect(info.body).toEqual({ mode: storage === 'postgres' ? 'invite' : 'open', first_account: true });
    expect((await register({ email: 'first@example.com', password: 'first admin password' })).status).toBe(202);
    admin = api.as();
    const me = await admin.login('first@example.com', 'first admin password');
    expect(me.role).toBe('admin');
    adminId = me.id;
    expect((await api.get('/api/auth/registration')).body.first_account).toBe(false);

    const settings = await admin.get('/api/admin/settings');
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({
      registration: { mode: storage === 'postgres' ? 'invite' : 'open', source: 'default' },
      mode: storage === 'postgres' ? 'server' : 'embedded',
      trust_proxy: true,
      limits: { registrations_per_hour: 4, login_max_failures: 5 },
    });
  });

  it('open: anyone registers, as a member who cannot reach the admin routes', async () => {
    expect((await admin.patch('/api/admin/settings', { registration: 'open' })).body.registration).toEqual({ mode: 'open', source: 'admin' });
    expect((await register({ email: 'member@example.com', password: 'member password' })).status).toBe(202);
    const member = api.as();
    expect((await member.login('member@example.com', 'member password')).role).toBe('member');
    for (const [method, path] of [
      ['GET', '/api/admin/users'],
      ['PATCH', `/api/admin/users/${adminId}`],
      ['GET', '/api/admin/invites'],
      ['POST', '/api/admin/invites'],
      ['DELETE', '/api/admin/invites/x'],
      ['GET', '/api/admin/settings'],
      ['PATCH', '/api/admin/settings'],
      ['GET', '/api/admin/sqlite-grants'],
      ['POST', '/api/admin/sqlite-grants'],
    ]) {
      const response = await member.request(method, path, method === 'POST' || method === 'PATCH' ? { registration: 'open', disabled: true } : undefined);
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.error.code).toBe('FORBIDDEN');
    }
  });

  it('invite: needs a live, unused invite; each link works once, is stored as a hash, and expires or is revoked', async () => {
    expect((await admin.patch('/api/admin/settings', { registration: 'invite' })).status).toBe(200);
    expect((await api.get('/api/auth/registration')).body.mode).toBe('invite');
    const none = await register({ email: 'uninvited@example.com', password: 'long enough' });
    expect([none.status, none.body.error.code]).toEqual([403, 'INVITE_REQUIRED']);
    const forged = await register({ email: 'uninvited@example.com', password: 'long enough', invite: 'inv_forged' });
    expect([forged.status, forged.body.error.code]).toEqual([403, 'INVITE_INVALID']);

    const created = await admin.post('/api/admin/invites', { expires_in_hours: 24 });
    expect(created.status).toBe(201);
    expect(created.body.path).toBe(`/register?invite=${created.body.token}`);
    expect(created.body.invite.status).toBe('pending');
    const rows = await appRows<Record<string, unknown>>(app, 'SELECT * FROM invites');
    expect(JSON.stringify(rows)).not.toContain(created.body.token);

    expect((await register({ email: 'invited@example.com', password: 'long enough', invite: created.body.token })).status).toBe(202);
    expect((await api.as().login('invited@example.com', 'long enough')).role).toBe('member');
    const reused = await register({ email: 'second-use@example.com', password: 'long enough', invite: created.body.token });
    expect([reused.status, reused.body.error.code]).toEqual([403, 'INVITE_INVALID']);
    expect((await api.post('/api/auth/login', { email: 'second-use@example.com', password: 'long enough' })).status).toBe(401);

    const expiring = (await admin.post('/api/admin/invites', { expires_in_hours: 1 })).body;
    const late = await later(app, 2 * 3_600_000, () => register({ email: 'late@example.com', password: 'long enough', invite: expiring.token }));
    expect([late.status, late.body.error.code]).toEqual([403, 'INVITE_INVALID']);
    const revoked = (await admin.post('/api/admin/invites', {})).body;
    expect((await admin.delete(`/api/admin/invites/${revoked.invite.id}`)).status).toBe(204);
    const withRevoked = await register({ email: 'revoked@example.com', password: 'long enough', invite: revoked.token });
    expect([withRevoked.status, withRevoked.body.error.code]).toEqual([403, 'INVITE_INVALID']);

    const listed = (await admin.get('/api/admin/invites')).body as { id: string; status: string; used_by_email: string | null }[];
    expect(listed.find((i) => i.id === created.body.invite.id)).toMatchObject({ status: 'used', used_by_email: 'invited@example.com' });
    expect(listed.find((i) => i.id === revoked.invite.id)?.status).toBe('revoked');
    expect(JSON.stringify(listed)).not.toContain(created.body.token);
    expect((await admin.post('/api/admin/invites', { expires_in_hours: 0 })).status).toBe(400);
    expect((await admin.delete('/api/admin/invites/no-such-invite')).status).toBe(404);
  });

  it('closed: nobody registers, even with a live invite', async () => {
    const invite = (await admin.post('/api/admin/invites', {})).body;
    expect((await admin.patch('/api/admin/settings', { registration: 'closed' })).status).toBe(200);
    const refused = await register({ email: 'closed@example.com', password: 'long enough', invite: invite.token });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'REGISTRATION_CLOSED']);
    expect((await admin.patch('/api/admin/settings', { registration: 'sometimes' })).status).toBe(400);
    await admin.patch('/api/admin/settings', { registration: 'open' });
  });

  it('disabling a user stops their tokens at once; enabling does not bring old tokens back', async () => {
    await register({ email: 'to-disable@example.com', password: 'long enough' });
    const victim = api.as();
    const user = await victim.login('to-disable@example.com', 'long enough');
    const users = (await admin.get('/api/admin/users')).body as { id: string; email: string; role: string; disabled: boolean }[];
    expect(users.find((u) => u.id === user.id)).toMatchObject({ role: 'member', disabled: false });
    expect(JSON.stringify(users)).not.toMatch(/password|scrypt/);

    expect((await admin.patch(`/api/admin/users/${user.id}`, { disabled: true })).body).toMatchObject({ id: user.id, disabled: true });
    expect((await victim.get('/api/auth/me')).status).toBe(401);
    const login = await api.post('/api/auth/login', { email: 'to-disable@example.com', password: 'long enough' });
    expect([login.status, login.body.error.code]).toEqual([403, 'ACCOUNT_DISABLED']);
    // Without the password, a disabled account looks like any wrong login.
    expect((await api.post('/api/auth/login', { email: 'to-disable@example.com', password: 'not the password' })).status).toBe(401);

    expect((await admin.patch(`/api/admin/users/${user.id}`, { disabled: false })).body.disabled).toBe(false);
    expect((await victim.get('/api/auth/me')).status).toBe(401);
    expect((await victim.login('to-disable@example.com', 'long enough')).id).toBe(user.id);
  });

  it('an admin promotes a member, and cannot demote or disable themselves', async () => {
    await register({ email: 'promoted@example.com', password: 'long enough' });
    const member = api.as();
    const user = await member.login('promoted@example.com', 'long enough');
    expect((await admin.patch(`/api/admin/users/${user.id}`, { role: 'admin' })).body.role).toBe('admin');
    expect((await member.get('/api/admin/users')).status).toBe(200);
    for (const change of [{ role: 'member' }, { disabled: true }]) {
      const self = await admin.patch(`/api/admin/users/${adminId}`, change);
      expect([self.status, self.body.error.code]).toEqual([409, 'CONFLICT']);
    }
    expect((await admin.patch('/api/admin/users/nobody', { role: 'admin' })).status).toBe(404);
    expect((await admin.patch(`/api/admin/users/${user.id}`, {})).status).toBe(400);
  });

  it('limits registration attempts per address (429 + Retry-After); another address is not affected', async () => {
    const address = freshAddress();
    for (let i = 0; i < 4; i++) expect((await from(api, address).register({ email: `burst-${i}@example.com`, password: 'long enough' })).status).toBe(202);
    const blocked = await from(api, address).register({ email: 'burst-9@example.com', password: 'long enough' });
    expect([blocked.status, blocked.body.error.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await register({ email: 'elsewhere@example.com', password: 'long enough' })).status).toBe(202);
  });
});

describe('REGISTRATION in the environment', () => {
  let app: TestApp;
  let api: ApiClient;
  beforeAll(async () => {
    app = await startTestApp({ REGISTRATION: 'closed' });
    api = new ApiClient(app.url);
  });
  afterAll(() => app?.close());

  it('lets only the first account in when closed, and wins over the admin page', async () => {
    expect((await api.get('/api/auth/registration')).body).toEqual({ mode: 'closed', first_account: true });
    const admin = api.as();
    expect((await admin.register('owner@example.com', 'owner password')).role).toBe('admin');
    const second = await api.post('/api/auth/register', { email: 'second@example.com', password: 'long enough' });
    expect([second.status, second.body.error.code]).toEqual([403, 'REGISTRATION_CLOSED']);
    expect((await admin.get('/api/admin/settings')).body.registration).toEqual({ mode: 'closed', source: 'environment' });
    const change = await admin.patch('/api/admin/settings', { registration: 'open' });
    expect([change.status, change.body.error.code]).toEqual([409, 'CONFLICT']);
    expect(change.body.error.message).toMatch(/REGISTRATION environment variable/);
  });
});

describe('HTTP edges', () => {
  let app: TestApp;
  let api: ApiClient;
  beforeAll(async () => {
    app = await startTestApp();
    api = new ApiClient(app.url);
    await api.register();
  });
  afterAll(() => app?.close());

  it('answers unknown routes, bad JSON and huge bodies with JSON errors', async () => {
    const missing = await api.get('/api/nope');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const badJson = await api.request('POST', '/api/connections', '{"name":');
    expect(badJson.status).toBe(400);
    expect(badJson.body.error.code).toBe('VALIDATION_FAILED');
    const huge = await api.post('/api/connections', { name: 'x'.repeat(2_000_000) });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const wrongType = await api.request('POST', '/api/chat', 'not json', { headers: { 'content-type': 'text/plain' } });
    expect(wrongType.status).toBeLessThan(500);
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const html = await api.get('/api/docs');
    expect(html.status).toBe(200);
    const doc = await api.get('/api/docs/openapi.json');
    expect(doc.status).toBe(200);
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(['/api/auth/register', '/api/connections', '/api/connections/{id}/query', '/api/chat/{thread_id}/message', '/api/models', '/api/admin/users']),
    );
    const register = doc.body.paths['/api/auth/register'].post.requestBody.content['application/json'].schema;
    expect(register.properties.password.minLength).toBe(8);
  });
});
