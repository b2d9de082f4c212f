import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SseParser } from '@aigis/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { sharedPath, TEST_PG_URL } from '@aigis/test-support/env';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const DEV_ORIGIN = 'http://localhost:5173';

/** The web app's session: an httpOnly SameSite=Strict cookie, accepted for writes only from our own origin. */
describe.each(['sqlite', 'postgres'] as const)('cookie session (%s app storage)', (storage) => {
  let app: TestApp;
  let storageDb: PgDatabase | undefined;
  let sqliteRoot: string;
  let email: string;
  const password = 'cookie session password';

  beforeAll(async () => {
    sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-cookie-'));
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    let env: Record<string, string> = { CORS_ORIGIN: DEV_ORIGIN, TRUST_PROXY: 'true', SQLITE_ROOT: sqliteRoot };
    if (storage === 'postgres') {
      storageDb = await createPgDatabase('appstore');
      const url = new URL(TEST_PG_URL);
      url.pathname = `/${storageDb.name}`;
      env = { ...env, DATABASE_URL: url.toString(), MASTER_ENCRYPTION_KEY: 'ef'.repeat(32) };
    }
    app = await startTestApp(env);
    email = `cookie-${Date.now()}@example.com`;
    await new ApiClient(app.url).register(email, password);
  });

  afterAll(async () => {
    await app?.close();
    await storageDb?.drop();
    fs.rmSync(sqliteRoot, { recursive: true, force: true });
  });

  function call(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<Response> {
    return fetch(app.url + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  /** Logs in as the web app does, from our own origin, and answers the Cookie header a browser would send back. */
  async function cookieLogin(extra: Record<string, string> = {}): Promise<{ cookie: string; setCookie: string; body: any }> {
    const response = await call('POST', '/api/auth/login', { origin: app.url, ...extra }, { email, password, session: 'cookie' });
    expect(response.status).toBe(200);
    const setCookie = response.headers.get('set-cookie') ?? '';
    return { cookie: setCookie.split(';')[0], setCookie, body: await response.json() };
  }

  it('sets an httpOnly, SameSite=Strict cookie and never gives the token to the page', async () => {
    const { cookie, setCookie, body } = await cookieLogin();
    expect(setCookie).toMatch(/^aigis_session=aig_[\w-]+;/);
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Strict/i);
    expect(setCookie).toMatch(/; Path=\//);
    // Plain HTTP: not Secure (the browser would drop it); over TLS it is (next test).
    expect(setCookie).not.toMatch(/; Secure/i);
    expect(body).toEqual({ user: { id: expect.any(String), email, role: expect.any(String) } });
    expect(JSON.stringify(body)).not.toContain(cookie.split('=')[1]);
    expect((await call('GET', '/api/auth/me', { cookie })).status).toBe(200);
  });

  it('marks the cookie Secure (and __Host-) behind a TLS proxy when TRUST_PROXY is on', async () => {
    const { setCookie, cookie } = await cookieLogin({ 'x-forwarded-proto': 'https', origin: app.url.replace('http:', 'https:') });
    expect(setCookie).toMatch(/^__Host-aigis_session=aig_[\w-]+;/);
    expect(setCookie).toMatch(/; Secure/i);
    expect(setCookie).toMatch(/; Path=\//);
    const created = await call('POST', '/api/chat', { cookie, 'x-forwarded-proto': 'https', origin: app.url.replace('http:', 'https:') }, {});
    expect(created.status).toBe(201);
  });

  it('refuses to start a cookie session for another origin, or without one (no login CSRF)', async () => {
    const attempts: Record<string, string>[] = [{}, { origin: 'https://evil.example' }, { origin: 'null' }, { referer: 'https://evil.example/page' }];
    for (const headers of attempts) {
      const response = await call('POST', '/api/auth/login', headers, { email, password, session: 'cookie' });
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(((await response.json()) as any).error.code).toBe('ORIGIN_REFUSED');
      expect(response.headers.get('set-cookie')).toBeNull();
    }
  });

  it('refuses cookie-authenticated writes without our Origin (or Referer), and accepts them with it', async () => {
    const { cookie } = await cookieLogin();
    const threadCount = async () => ((await (await call('GET', '/api/chat', { cookie })).json()) as unknown[]).length;
    const before = await threadCount();
    const refused: Record<string, string>[] = [
      { cookie },
      { cookie, origin: 'https://evil.example' },
      { cookie, origin: 'null' },
      { cookie, referer: 'https://evil.example/x' },
      { cookie, origin: app.url.replace('127.0.0.1', 'localhost') },
    ];
    for (const headers of refused) {
      const response = await call('POST', '/api/chat', headers, {});
      expect(response.status, JSON.stringify(headers)).toBe(403);
      expect(((await response.json()) as any).error.code).toBe('ORIGIN_REFUSED');
    }
    // Nothing was created by the refused requests.
    expect(await threadCount()).toBe(before);

    const own = await call('POST', '/api/chat', { cookie, origin: app.url }, { title: 'mine' });
    expect(own.status).toBe(201);
    const threadId = ((await own.json()) as any).thread_id;
    expect((await call('POST', '/api/chat', { cookie, referer: `${app.url}/threads/x` }, {})).status).toBe(201);
    expect((await call('POST', '/api/chat', { cookie, origin: DEV_ORIGIN }, {})).status).toBe(201);

    for (const [method, body] of [['PATCH', { title: 'stolen' }], ['DELETE', undefined]] as const) {
      const response = await call(method, `/api/chat/${threadId}`, { cookie, origin: 'https://evil.example' }, body);
      expect(response.status, method).toBe(403);
    }
    const thread = (await (await call('GET', `/api/chat/${threadId}`, { cookie })).json()) as any;
    expect(thread.title).toBe('mine');
  });

  it('streams a chat answer (SSE) on the cookie from our origin, and refuses the stream from another', async () => {
    const { cookie } = await cookieLogin();
    const headers = { cookie, origin: app.url };
    const connection = (await (await call('POST', '/api/connections', headers, { name: 'Chinook', dialect: 'sqlite', database: 'chinook.sqlite' })).json()) as any;
    const thread = (await (await call('POST', '/api/chat', headers, { connection_id: connection.id })).json()) as any;
    const content = { content: 'SQL: SELECT COUNT(*) AS n FROM Artist' };

    const refused = await call('POST', `/api/chat/${thread.thread_id}/message`, { cookie, origin: 'https://evil.example' }, content);
    expect(refused.status).toBe(403);
    const response = await call('POST', `/api/chat/${thread.thread_id}/message`, headers, content);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const parser = new SseParser();
    const events = parser.push(await response.text());
    const result = events.find((e) => e.type === 'tool_result');
    expect(result?.data).toMatchObject({ content: { type: 'sql_result', rows: [{ n: 275 }] } });
    expect(events.at(-1)?.type).toBe('end');
  });

  it('needs no Origin for bearer tokens (API clients), and a bearer header wins over a cookie', async () => {
    const api = new ApiClient(app.url);
    await api.login(email, password);
    expect((await call('POST', '/api/chat', { authorization: `Bearer ${api.token}` }, {})).status).toBe(201);
    expect((await call('POST', '/api/chat', { authorization: 'Bearer aig_forged', cookie: (await cookieLogin()).cookie, origin: app.url }, {})).status).toBe(401);
  });

  it('answers GET /api/auth/session with 200 whether signed in or not', async () => {
    const { cookie, body } = await cookieLogin();
    expect(await (await call('GET', '/api/auth/session', { cookie })).json()).toEqual({ user: body.user });
    const anonymous = await call('GET', '/api/auth/session', {});
    expect([anonymous.status, await anonymous.json()]).toEqual([200, { user: null }]);
    expect(await (await call('GET', '/api/auth/session', { cookie: 'aigis_session=aig_forged' })).json()).toEqual({ user: null });
  });

  it('logout revokes the cookie session and expires the cookie', async () => {
    const { cookie } = await cookieLogin();
    const response = await call('POST', '/api/auth/logout', { cookie, origin: app.url });
    expect(response.status).toBe(204);
    const cleared = response.headers.get('set-cookie') ?? '';
    expect(cleared).toMatch(/^aigis_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    // Even if a copy of the cookie survived, it no longer works.
    expect((await call('GET', '/api/auth/me', { cookie })).status).toBe(401);
    expect(await (await call('GET', '/api/auth/session', { cookie })).json()).toEqual({ user: null });
  });

  it('logout by a cross-site request is refused (the session stays)', async () => {
    const { cookie } = await cookieLogin();
    expect((await call('POST', '/api/auth/logout', { cookie, origin: 'https://evil.example' })).status).toBe(403);
    expect((await call('GET', '/api/auth/me', { cookie })).status).toBe(200);
  });
});
