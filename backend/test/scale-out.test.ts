import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from './support/api-client.js';
import { startAppProcess, type AppProcess } from '@aigis/test-support/app-process';
import { sharedPath, TEST_PG_URL } from '@aigis/test-support/env';
import { startFakeOpenAI, type FakeOpenAI } from '@aigis/test-support/fake-openai';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { analystResponder } from '@aigis/test-support/scripted-analyst';
import { streamMessage } from './support/sse-client.js';

/**
 * Server mode is stateless per process: two API processes (separate DATA_DIRs, separate caches) on one
 * PostgreSQL storage carry one conversation whose messages go to them alternately, as a load balancer
 * without sticky sessions would send them.
 */
async function modelsReady(url: string, token: string, names: string[]): Promise<void> {
  const deadline = Date.now() + 15_000;
  const api = new ApiClient(url, token);
  for (;;) {
    const models = (await api.get('/api/models')).body as { name: string; available: boolean }[];
    if (names.every((name) => models.some((m) => m.name === name && m.available))) return;
    if (Date.now() > deadline) throw new Error(`models not available on ${url}: ${JSON.stringify(models)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('several API processes share storage and checkpoints (server mode)', () => {
  let fake: FakeOpenAI;
  let storage: PgDatabase;
  let a: AppProcess;
  let b: AppProcess;
  let onA: ApiClient;
  const sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-scale-root-'));
  /** Tokens per second of the scripted answers while set (0 = as fast as possible). */
  let pace = 0;

  beforeAll(async () => {
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    const analyst = analystResponder({ sqlFor: (question) => (/albums/i.test(question) ? 'SELECT COUNT(*) AS albums FROM Album' : 'SELECT COUNT(*) AS tracks FROM Track') });
    fake = await startFakeOpenAI({
      models: ['qwen/qwen3-8b', 'openai/gpt-oss-20b'],
      responder: (request) => {
        const response = analyst(request);
        return response && pace ? { ...response, tokensPerSecond: pace } : response;
      },
    });
    storage = await createPgDatabase('scaleout');
    const url = new URL(TEST_PG_URL);
    url.pathname = `/${storage.name}`;
    const env = {
      DATABASE_URL: url.toString(),
      MASTER_ENCRYPTION_KEY: 'ab'.repeat(32),
      SQLITE_ROOT: sqliteRoot,
      LM_STUDIO_ENDPOINT: fake.url,
      DEMO_DATABASE: 'false',
    };
    // Started one after the other: both run the migrations at boot, the second finds them done.
    a = await startAppProcess(env);
    b = await startAppProcess(env);
    onA = new ApiClient(a.url);
    // Each process probes the model server on its own (availability is per process).
    await onA.register();
    await Promise.all([a, b].map((app) => modelsReady(app.url, onA.token!, ['qwen3-8b', 'gpt-oss-20b'])));
  }, 240_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await fake?.close();
    await storage?.drop();
    fs.rmSync(sqliteRoot, { recursive: true, force: true });
  });

  it('continues one thread whose messages alternate between the two processes', async () => {
    const onB = new ApiClient(b.url, onA.token);
    // A token issued by one process is accepted by the other.
    expect((await onB.get('/api/auth/me')).status).toBe(200);

    const connection = (await onA.post('/api/connections', { name: 'Chinook', dialect: 'sqlite', database: 'chinook.sqlite' })).body;
    expect(connection.id).toBeTruthy();
    const threadId = (await onB.post('/api/chat', { model: 'qwen', connection_id: connection.id })).body.thread_id;
    expect(threadId).toBeTruthy();

    const first = await streamMessage(a.url, onA.token!, threadId, 'How many tracks are in the store?');
    expect(first.events.at(-1)).toMatchObject({ type: 'end' });

    // The model is switched on B; A must use it for the next message without any cache of its own.
    expect((await onB.post(`/api/chat/${threadId}/model`, { name: 'gpt-oss' })).status).toBe(200);
    const before = fake.requests.length;
    const second = await streamMessage(a.url, onA.token!, threadId, 'And how many albums?');
    expect(second.events.at(-1)).toMatchObject({ type: 'end' });
    const secondRequests = fake.requests.slice(before);
    expect(secondRequests.length).toBeGreaterThan(0);
    expect(secondRequests.every((r) => r.model === 'openai/gpt-oss-20b')).toBe(true);
    // A's model call carries the turn that ran on A before and the switch made on B.
    const history = JSON.stringify(secondRequests.find((r) => r.tools.length)!.messages);
    expect(history).toContain('How many tracks are in the store?');
    expect(history).toContain('The top result is 3503');

    const third = await streamMessage(b.url, onB.token!, threadId, 'How many tracks again?');
    expect(third.events.at(-1)).toMatchObject({ type: 'end' });

    // Either process shows the whole conversation, in order, with every result.
    for (const api of [onA, onB]) {
      const thread = (await api.get(`/api/chat/${threadId}`)).body;
      expect(thread.model).toBe('gpt-oss-20b');
      const users = thread.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content);
      expect(users).toEqual(['How many tracks are in the store?', 'And how many albums?', 'How many tracks again?']);
      const results = thread.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { result: { rows: unknown[] } }) => m.result.rows[0]);
      expect(results).toEqual([{ tracks: 3503 }, { albums: 347 }, { tracks: 3503 }]);
    }
    const state = (await onA.get(`/api/chat/${threadId}/state`)).body;
    expect(state.sql_result.rows).toEqual([{ tracks: 3503 }]);
  });

  it('answers one message at a time per thread, whichever process receives the second one', async () => {
    const onB = new ApiClient(b.url, onA.token);
    const connection = (await onA.post('/api/connections', { name: 'Chinook 2', dialect: 'sqlite', database: 'chinook.sqlite' })).body;
    const threadId = (await onA.post('/api/chat', { model: 'qwen', connection_id: connection.id })).body.thread_id;

    pace = 20;
    let started!: () => void;
    const streaming = new Promise<void>((resolve) => (started = resolve));
    const slow = streamMessage(a.url, onA.token!, threadId, 'How many tracks are in the store?', { onEvent: () => started() });
    await streaming;
    // The same thread on the other process, and on the same one, while A is still answering.
    for (const url of [b.url, a.url]) {
      const busy = await streamMessage(url, onA.token!, threadId, 'And how many albums?');
      expect(busy.status).toBe(409);
      expect(busy.json.error.code).toBe('THREAD_BUSY');
    }
    // Another thread of the same user is not held up.
    const other = (await onB.post('/api/chat', { model: 'qwen', connection_id: connection.id })).body.thread_id;
    const meanwhile = streamMessage(b.url, onA.token!, other, 'How many albums?');
    expect((await slow).events.at(-1)).toMatchObject({ type: 'end' });
    expect((await meanwhile).events.at(-1)).toMatchObject({ type: 'end' });
    pace = 0;

    const next = await streamMessage(b.url, onA.token!, threadId, 'And how many albums?');
    expect(next.events.at(-1)).toMatchObject({ type: 'end' });
    const thread = (await onB.get(`/api/chat/${threadId}`)).body;
    expect(thread.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content)).toEqual([
      'How many tracks are in the store?',
      'And how many albums?',
    ]);

    // A client that goes away frees the thread too.
    pace = 20;
    const controller = new AbortController();
    await streamMessage(a.url, onA.token!, threadId, 'How many tracks again?', { signal: controller.signal, onEvent: () => controller.abort() });
    pace = 0;
    const deadline = Date.now() + 10_000;
    let after = await streamMessage(b.url, onA.token!, threadId, 'How many albums again?');
    while (after.status === 409 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      after = await streamMessage(b.url, onA.token!, threadId, 'How many albums again?');
    }
    expect(after.events.at(-1)).toMatchObject({ type: 'end' });
  });
});
