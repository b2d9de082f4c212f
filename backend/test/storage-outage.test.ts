import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { ApiClient } from './support/api-client.js';
import { TEST_PG_URL } from '@aigis/test-support/env';
import { reply, startFakeOpenAI, type FakeOpenAI } from '@aigis/test-support/fake-openai';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { streamMessage } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** Runs SQL in the server's admin database (not the storage database, whose connections the test cuts). */
async function admin(sql: string, params: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: TEST_PG_URL });
  await client.connect();
  try {
    return await client.query(sql, params);
  } finally {
    await client.end();
  }
}

const terminateStorage = (db: PgDatabase) => admin('SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE datname = $1', [db.name]);

/**
 * Server mode, storage on a fresh PostgreSQL database. Its backends are terminated mid-run, and for a while it
 * refuses connections altogether: the server stays up (an unhandled pool error would fail this test run),
 * answers 503 STORAGE_UNAVAILABLE or succeeds, and succeeds again once storage is back, without a restart.
 */
describe('storage outages (server mode)', () => {
  let storage: PgDatabase;
  let fake: FakeOpenAI;
  let app: TestApp;
  let api: ApiClient;
  let threadId: string;

  beforeAll(async () => {
    storage = await createPgDatabase('outage');
    // A slow answer (about 2 s), so the storage can be cut while it streams.
    fake = await startFakeOpenAI({ models: ['qwen/qwen3-8b'], responder: () => reply.text('word '.repeat(40).trim(), { tokensPerSecond: 20 }) });
    const url = new URL(TEST_PG_URL);
    url.pathname = `/${storage.name}`;
    app = await startTestApp({ DATABASE_URL: url.toString(), MASTER_ENCRYPTION_KEY: 'ab'.repeat(32), LM_STUDIO_ENDPOINT: fake.url });
    await app.app.get(ModelRegistry).refresh();
    api = new ApiClient(app.url);
    await api.register();
    threadId = (await api.post('/api/chat', { model: 'qwen' })).body.thread_id;
  });

  afterAll(async () => {
    await admin(`ALTER DATABASE "${storage.name}" ALLOW_CONNECTIONS true`).catch(() => undefined);
    await app?.close();
    await fake?.close();
    await storage?.drop();
  });

  it('terminated backends: every request answers 200 or 503, and the next ones succeed', async () => {
    const statuses: number[] = [];
    const codes = new Set<string>();
    const hammer = async () => {
      for (let i = 0; i < 15; i++) {
        const response = await api.get(i % 2 ? '/api/connections' : `/api/chat/${threadId}`);
        statuses.push(response.status);
        if (response.status !== 200) codes.add(response.body.error.code);
      }
    };
    const load = Promise.all([hammer(), hammer(), hammer()]);
    for (let i = 0; i < 3; i++) {
      await terminateStorage(storage);
      await new Promise((r) => setTimeout(r, 30));
    }
    await load;
    expect(statuses.every((s) => s === 200 || s === 503), JSON.stringify(statuses)).toBe(true);
    expect([...codes].every((c) => c === 'STORAGE_UNAVAILABLE')).toBe(true);
    expect((await api.get('/api/connections')).status).toBe(200);
    expect((await api.get(`/api/chat/${threadId}`)).status).toBe(200);
  });

  it('while storage refuses connections: 503 STORAGE_UNAVAILABLE with Retry-After; afterwards everything works again', async () => {
    await admin(`ALTER DATABASE "${storage.name}" ALLOW_CONNECTIONS false`);
    await terminateStorage(storage);
    try {
      for (const path of ['/api/connections', '/api/auth/me', `/api/chat/${threadId}`]) {
        const response = await api.get(path);
        expect(response.status, path).toBe(503);
        expect(response.body.error).toEqual({ code: 'STORAGE_UNAVAILABLE', message: 'The app storage is not reachable right now. Try again in a few seconds.' });
        expect(response.headers.get('retry-after')).toBe('5');
      }
      const login = await api.post('/api/auth/register', { email: `x-${Date.now()}@example.com`, password: 'correct horse battery' });
      expect(login.status).toBe(503);
    } finally {
      await admin(`ALTER DATABASE "${storage.name}" ALLOW_CONNECTIONS true`);
    }
    expect((await api.get('/api/connections')).status).toBe(200);
    const answer = await streamMessage(app.url, api.token!, threadId, 'Still there?');
    expect(answer.events.at(-1)!.type).toBe('end');
  });

  it('storage cut during a streamed answer: the stream ends cleanly (end, or an error event) and the thread takes the next message', async () => {
    // Held in an object: the stream's callback sets it, which narrowing of a plain `let` would not see.
    const cut: { done: Promise<unknown> | null } = { done: null };
    const answer = await streamMessage(app.url, api.token!, threadId, 'Tell me slowly.', {
      onEvent: (event) => {
        if (event.type === 'chunk' && !cut.done) cut.done = terminateStorage(storage);
      },
    });
    await cut.done;
    const last = answer.events.at(-1)!;
    expect(['end', 'error']).toContain(last.type);
    if (last.type === 'error') expect(last.data.code).toBe('STORAGE_UNAVAILABLE');

    // Storage refusing connections during a whole turn: the answer is an error event (or a 503 before the stream).
    await admin(`ALTER DATABASE "${storage.name}" ALLOW_CONNECTIONS false`);
    await terminateStorage(storage);
    try {
      const response = await api.request('POST', `/api/chat/${threadId}/message`, { content: 'Now?' });
      expect(response.status).toBe(503);
      expect(response.body.error.code).toBe('STORAGE_UNAVAILABLE');
    } finally {
      await admin(`ALTER DATABASE "${storage.name}" ALLOW_CONNECTIONS true`);
    }
    const next = await streamMessage(app.url, api.token!, threadId, 'And now?');
    expect(next.events.at(-1)!.type).toBe('end');
    expect((await api.get(`/api/chat/${threadId}`)).body.messages.filter((m: { role: string }) => m.role === 'user').length).toBeGreaterThanOrEqual(3);
  });
});
