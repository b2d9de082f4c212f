import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../src/common/clock.js';
import { ApiClient } from './support/api-client.js';
import { TEST_PG_URL } from './support/env.js';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The same migrations and repositories serve both app storages: every test runs on each. */
describe.each(['sqlite', 'postgres'] as const)('accounts and tokens (%s app storage)', (storage) => {
  let app: TestApp;
  let storageDb: PgDatabase | undefined;
  let api: ApiClient;

  beforeAll(async () => {
    let env: Record<string, string> = { LOGIN_MAX_FAILURES: '3' };
    if (storage === 'postgres') {
      storageDb = await createPgDatabase('appstore');
      const url = new URL(TEST_PG_URL);
      url.pathname = `/${storageDb.name}`;
      env = { ...env, DATABASE_URL: url.toString(), MASTER_ENCRYPTION_KEY: 'ab'.repeat(32) };
    }
    app = await startTestApp(env);
    api = new ApiClient(app.url);
  });

  afterAll(async () => {
    await app?.close();
    await storageDb?.drop();
  });

  /** Rows of the app database, whichever storage it is. */
  async function appRows<T>(sql: string): Promise<T[]> {
    if (storage === 'postgres') {
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

  it('registers, logs in, answers me, and logs out (the token stops working)', async () => {
    const email = `Ada.${Date.now()}@Example.com`;
    const registered = await api.post('/api/auth/register', { email, password: 'a long passphrase' });
    expect(registered.status).toBe(201);
    expect(registered.body.user.email).toBe(email.toLowerCase());
    expect(registered.body.token).toMatch(/^aig_/);

    const login = await api.post('/api/auth/login', { email: email.toUpperCase(), password: 'a long passphrase' });
    expect(login.status).toBe(200);
    const client = api.as(login.body.token);
    expect((await client.get('/api/auth/me')).body).toEqual({ id: registered.body.user.id, email: email.toLowerCase() });

    expect((await client.post('/api/auth/logout')).status).toBe(204);
    const after = await client.get('/api/auth/me');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UNAUTHORIZED');
    // The other session is untouched.
    expect((await api.as(registered.body.token).get('/api/auth/me')).status).toBe(200);
  });

  it('stores only a memory-hard password hash and token hashes', async () => {
    const password = 'plaintext-never-stored';
    const { body } = await api.post('/api/auth/register', { email: `hash-${Date.now()}@example.com`, password });
    const [user] = await appRows<{ password_hash: string }>(`SELECT password_hash FROM users WHERE id = '${body.user.id}'`);
    expect(user.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(user.password_hash).not.toContain(password);
    const tokens = await appRows<{ token_hash: string }>(`SELECT token_hash FROM auth_tokens WHERE user_id = '${body.user.id}'`);
    expect(tokens).toHaveLength(1);
    expect(tokens[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens[0].token_hash).not.toContain(body.token.slice(4));
  });

  it('explains bad input and duplicates with codes, never a 500', async () => {
    const bad = await api.post('/api/auth/register', { email: 'not-an-email', password: 'short' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    expect(bad.body.error.message).toMatch(/email/);
    expect(bad.body.error.message).toMatch(/password: must be at least 8 characters/);
    expect((await api.post('/api/auth/register', {})).status).toBe(400);
    expect((await api.request('POST', '/api/auth/register', '[1,2')).body.error.code).toBe('VALIDATION_FAILED');

    const email = `dup-${Date.now()}@example.com`;
    await api.post('/api/auth/register', { email, password: 'password one' });
    const again = await api.post('/api/auth/register', { email, password: 'password two' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('CONFLICT');
  });

  it('rate-limits failed logins per email, and then refuses even the right password', async () => {
    const email = `limited-${Date.now()}@example.com`;
    await api.post('/api/auth/register', { email, password: 'the right one' });
    for (let i = 0; i < 3; i++) {
      const wrong = await api.post('/api/auth/login', { email, password: 'a wrong one' });
      expect(wrong.status).toBe(401);
    }
    const blocked = await api.post('/api/auth/login', { email, password: 'the right one' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    // After the window, the right password works again.
    const clock = app.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + 16 * 60_000);
    try {
      expect((await api.post('/api/auth/login', { email, password: 'the right one' })).status).toBe(200);
    } finally {
      clock.now = realNow;
    }
  });

  it('expires tokens', async () => {
    const client = new ApiClient(app.url);
    await client.register();
    const clock = app.app.get(Clock);
    const realNow = clock.now.bind(clock);
    clock.now = () => new Date(realNow().getTime() + (app.config.TOKEN_TTL_HOURS + 1) * 3_600_000);
    try {
      expect((await client.get('/api/auth/me')).status).toBe(401);
    } finally {
      clock.now = realNow;
    }
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('needs a token everywhere but health and auth', async () => {
    expect((await api.as().get('/api/health')).body).toEqual({ status: 'ok' });
    for (const [method, path] of [
      ['GET', '/api/connections'],
      ['POST', '/api/connections'],
      ['GET', '/api/models'],
      ['GET', '/api/chat'],
      ['POST', '/api/chat'],
      ['GET', '/api/auth/me'],
    ]) {
      const response = await api.as().request(method, path, method === 'POST' ? {} : undefined);
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.error.code).toBe('UNAUTHORIZED');
    }
    expect((await api.as('aig_forged').get('/api/connections')).status).toBe(401);
    expect((await api.as().request('GET', '/api/connections', undefined, { headers: { authorization: 'Basic abc' } })).status).toBe(401);
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
      expect.arrayContaining(['/api/auth/register', '/api/connections', '/api/connections/{id}/query', '/api/chat/{thread_id}/message', '/api/models']),
    );
    const register = doc.body.paths['/api/auth/register'].post.requestBody.content['application/json'].schema;
    expect(register.properties.password.minLength).toBe(8);
  });
});
