import path from 'node:path';
import Database from 'better-sqlite3';
import type { StreamEvent } from '@aigis/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserLimits } from '../src/limits/user-limits.service.js';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { ApiClient } from './support/api-client.js';
import { TEST_MYSQL_URL, TEST_PG_URL } from '@aigis/test-support/env';
import { reply, startFakeOpenAI, type FakeOpenAI, type FakeRequest } from '@aigis/test-support/fake-openai';
import { createMysqlDatabase, createPgDatabase, loadMysqlChinook, loadPgChinook, mysqlAdminQuery, type MysqlDatabase, type PgDatabase } from './support/fixtures.js';
import { SQL_WRITER_MARK } from '@aigis/test-support/scripted-analyst';
import { streamMessage } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** About a second of work on Chinook (12 million joined rows), so parallel requests really overlap. */
const SLOW_SQL = 'SELECT COUNT(*) AS n FROM track a, track b WHERE a.milliseconds >= b.milliseconds';
const types = (events: StreamEvent[]) => events.map((e) => e.type);
const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function pgUrl(db: PgDatabase): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${db.name}`;
  return url.toString();
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(20);
  }
}

function auditOf(app: TestApp, threadId: string): { status: string; sql: string }[] {
  const db = new Database(path.join(app.dataDir, 'aigis.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT status, sql FROM query_audit WHERE thread_id = ? ORDER BY created_at, rowid').all(threadId) as { status: string; sql: string }[];
  } finally {
    db.close();
  }
}

let pgDb: PgDatabase;

beforeAll(async () => {
  pgDb = await createPgDatabase('limits');
  await loadPgChinook(pgDb);
});

afterAll(async () => {
  await pgDb?.drop();
});

describe('per-user limits on queries, streams and tool calls', () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: string;
  let aliceConnection: string;
  let bobConnection: string;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ models: ['qwen/qwen3-8b'] });
    app = await startTestApp({
      LM_STUDIO_ENDPOINT: fake.url,
      DEFAULT_MODEL: 'qwen3-8b',
      LLM_MAX_RETRIES: '0',
      USER_MAX_CONCURRENT_QUERIES: '2',
      USER_MAX_CONCURRENT_STREAMS: '2',
      USER_MAX_SAVED_CONNECTIONS: '3',
      LLM_MAX_TOOL_CALLS_PER_MESSAGE: '3',
      LLM_MAX_TOOL_CALLS_PER_TURN: '5',
      LLM_MAX_MODEL_CALLS_PER_TURN: '8',
    });
    await app.app.get(ModelRegistry).refresh();
    alice = new ApiClient(app.url);
    aliceId = (await alice.register()).id;
    bob = new ApiClient(app.url);
    await bob.register();
    aliceConnection = (await alice.post('/api/connections', { name: 'Chinook', url: pgUrl(pgDb) })).body.id;
    bobConnection = (await bob.post('/api/connections', { name: 'Chinook', url: pgUrl(pgDb) })).body.id;
  });

  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  const usage = () => app.app.get(UserLimits).usage(aliceId);

  async function thread(client: ApiClient, connectionId: string): Promise<string> {
    const created = await client.post('/api/chat', { connection_id: connectionId });
    expect(created.status).toBe(201);
    return created.body.thread_id;
  }

  it('answers the queries past the limit with 429 and when to retry, while another user is unaffected', async () => {
    const parallel = Array.from({ length: 6 }, () => alice.post(`/api/connections/${aliceConnection}/query`, { sql: SLOW_SQL }));
    await delay(100);
    const other = await bob.post(`/api/connections/${bobConnection}/query`, { sql: 'SELECT COUNT(*) AS n FROM track' });
    // An introspection and a connection test are queries too.
    const schema = await alice.get(`/api/connections/${aliceConnection}/schema?refresh=true`);
    const test = await alice.post(`/api/connections/${aliceConnection}/test`);
    const answers = await Promise.all(parallel);
    expect([schema.status, test.status]).toEqual([429, 429]);
    expect(schema.body.error.code).toBe('RATE_LIMITED');

    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/2 queries running.*Try again in 2 s/), details: { retry_after_s: 2 } });
    expect(refused.headers.get('retry-after')).toBe('2');
    expect(other.status).toBe(200);
    expect(Number(other.body.rows[0].n)).toBe(3503);
    expect(usage().queries).toBe(0);
    // Once they have finished, the slots are free again.
    expect((await alice.post(`/api/connections/${aliceConnection}/query`, { sql: 'SELECT 1 AS one' })).status).toBe(200);
  });

  it('gives every slot back when clients go away mid-query and mid-stream', async () => {
    const controllers = Array.from({ length: 2 }, () => new AbortController());
    const queries = controllers.map((c) =>
      fetch(`${app.url}/api/connections/${aliceConnection}/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sql: SLOW_SQL }),
        signal: c.signal,
      }).catch(() => undefined),
    );
    await until(() => usage().queries === 2);
    controllers.forEach((c) => c.abort());
    await Promise.all(queries);
    await until(() => usage().queries === 0);

    // Two streams: one on a model that talks slowly, one running slow SQL; both clients leave.
    fake.enqueue(reply.text(Array.from({ length: 200 }, (_, i) => `w${i} `), { tokensPerSecond: 20 }));
    const threadA = await thread(alice, aliceConnection);
    const threadB = await thread(alice, aliceConnection);
    const streamControllers = [new AbortController(), new AbortController()];
    const streams = [
      streamMessage(app.url, alice.token!, threadA, 'Tell me a long story', { signal: streamControllers[0].signal }),
      streamMessage(app.url, alice.token!, threadB, `SQL: ${SLOW_SQL}`, { signal: streamControllers[1].signal }),
    ];
    await until(() => usage().streams === 2 && usage().queries === 1);
    // A third stream at the same time is refused before it starts.
    const third = await streamMessage(app.url, alice.token!, threadA, 'and one more');
    expect(third.status).toBe(429);
    expect(third.json.error).toMatchObject({ code: 'RATE_LIMITED', details: { retry_after_s: 5 } });
    streamControllers.forEach((c) => c.abort());
    await Promise.all(streams.map((s) => s.catch(() => undefined)));
    await until(() => usage().streams === 0 && usage().queries === 0);
    // The threads take the next message.
    expect(types((await streamMessage(app.url, alice.token!, threadB, 'SQL: SELECT 1 AS one')).events)).toEqual(['tool_call', 'tool_result', 'end']);

    // Failures give their slots back too: a refused statement, a failing one, an upstream that errors.
    expect((await alice.post(`/api/connections/${aliceConnection}/query`, { sql: 'DELETE FROM track' })).status).toBe(400);
    expect((await alice.post(`/api/connections/${aliceConnection}/query`, { sql: 'SELECT no_such_column FROM track' })).status).toBe(422);
    fake.enqueue(reply.error(500));
    expect(types((await streamMessage(app.url, alice.token!, threadA, 'fail please')).events)).toEqual(['error']);
    expect(usage()).toMatchObject({ queries: 0, streams: 0 });
  });

  it('runs only the first tool calls of a message with 60, answering the rest with a tool error the model reads', async () => {
    const threadId = await thread(alice, aliceConnection);
    fake.reset();
    fake.script((request: FakeRequest) => {
      if (request.system.includes(SQL_WRITER_MARK)) return reply.text(`SELECT ${request.lastContent.replace(/\D/g, '') || 0} AS question`);
      if (request.lastMessage?.role === 'user') return reply.toolCalls(Array.from({ length: 60 }, (_, i) => ({ name: 'ask_database', args: { question: `question ${i}` } })));
      return reply.text('Here is what I found.');
    });
    const answer = await streamMessage(app.url, alice.token!, threadId, 'Answer sixty questions at once');
    fake.script(undefined);

    expect(types(answer.events).at(-1)).toBe('end');
    const results = answer.events.filter((e) => e.type === 'tool_result').map((e) => (e.data as { content: { type: string; code?: string; message?: string } }).content);
    expect(results).toHaveLength(60);
    expect(results.slice(0, 3).map((r) => r.type)).toEqual(['sql_result', 'sql_result', 'sql_result']);
    expect(results.slice(3).every((r) => r.type === 'error' && r.code === 'RATE_LIMITED' && /at most 3 tools/.test(r.message ?? ''))).toBe(true);
    // Only three queries reached the database, and only three SQL writer calls the model.
    expect(auditOf(app, threadId).map((a) => a.sql)).toEqual(['SELECT 0 AS question', 'SELECT 1 AS question', 'SELECT 2 AS question']);
    expect(fake.completions().filter((r) => r.system.includes(SQL_WRITER_MARK))).toHaveLength(3);
    // The model was told, for each refused call.
    const followUp = fake.completions().at(-1)!;
    expect(followUp.messages.filter((m) => m.role === 'tool' && m.content.includes('Not run'))).toHaveLength(57);
  });

  it('stops the turn past its tool calls, with a clear error, and the thread takes the next message', async () => {
    const threadId = await thread(alice, aliceConnection);
    fake.reset();
    fake.script((request: FakeRequest) => {
      if (request.system.includes(SQL_WRITER_MARK)) return reply.text('SELECT 1 AS one');
      if (request.tools.length && request.lastContent !== 'thanks') return reply.toolCalls(Array.from({ length: 3 }, (_, i) => ({ name: 'ask_database', args: { question: `q${i}` } })));
      return reply.text('You are welcome.');
    });
    try {
      const answer = await streamMessage(app.url, alice.token!, threadId, 'Keep asking');
      const kinds = types(answer.events);
      expect(kinds.at(-1)).toBe('error');
      expect(answer.events.at(-1)!.data).toMatchObject({ code: 'RATE_LIMITED', error: expect.stringMatching(/more than 5 tool calls.*LLM_MAX_TOOL_CALLS_PER_TURN/) });
      expect(auditOf(app, threadId)).toHaveLength(5);
      // Two assistant calls (3 + 3 tool calls asked, 5 ran), then no more.
      expect(fake.completions().filter((r) => !r.system.includes(SQL_WRITER_MARK))).toHaveLength(2);
      const next = await streamMessage(app.url, alice.token!, threadId, 'thanks');
      expect(types(next.events).at(-1)).toBe('end');
    } finally {
      fake.script(undefined);
    }
  });

  it('stops the turn past its model calls, counting those made inside tools', async () => {
    const threadId = await thread(alice, aliceConnection);
    fake.reset();
    // Every SQL the model writes fails, so each ask_database spends four model calls on corrections.
    fake.script((request: FakeRequest) => {
      if (request.system.includes(SQL_WRITER_MARK)) return reply.text('SELECT no_such_column FROM track');
      return reply.toolCalls({ name: 'ask_database', args: { question: 'anything' } });
    });
    try {
      const answer = await streamMessage(app.url, alice.token!, threadId, 'Try hard');
      expect(answer.events.at(-1)).toMatchObject({ type: 'error', data: { code: 'RATE_LIMITED', error: expect.stringMatching(/more than 8 model calls.*LLM_MAX_MODEL_CALLS_PER_TURN/) } });
      expect(fake.completions()).toHaveLength(8);
      const thread = await alice.get(`/api/chat/${threadId}`);
      expect(thread.status).toBe(200);
    } finally {
      fake.script(undefined);
    }
  });

  it('bounds the saved connections of one user', async () => {
    const created = await alice.post('/api/connections', { name: 'Second', url: pgUrl(pgDb) });
    expect(created.status).toBe(201);
    const racing = await Promise.all(Array.from({ length: 4 }, (_, i) => alice.post('/api/connections', { name: `More ${i}`, url: pgUrl(pgDb) })));
    expect(racing.filter((r) => r.status === 201).length).toBeLessThanOrEqual(1);
    for (const r of racing.filter((r) => r.status !== 201)) expect(r.body.error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/USER_MAX_SAVED_CONNECTIONS/) });
    expect((await alice.get('/api/connections')).body).toHaveLength(3);
    // Bob's count is his own.
    expect((await bob.post('/api/connections', { name: 'Bob two', url: pgUrl(pgDb) })).status).toBe(201);
  });
});

describe('per-user limit on open database connections', () => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: string;
  let myDb: MysqlDatabase;
  const urls = { postgres: '', mysql: '' };

  beforeAll(async () => {
    myDb = await createMysqlDatabase('limits');
    await loadMysqlChinook(myDb);
    urls.postgres = pgUrl(pgDb);
    const myUrl = new URL(TEST_MYSQL_URL);
    myUrl.pathname = `/${myDb.name}`;
    urls.mysql = myUrl.toString();
    app = await startTestApp({ POOL_MAX: '3', USER_MAX_DB_CONNECTIONS: '4', USER_MAX_CONCURRENT_QUERIES: '50' });
    alice = new ApiClient(app.url);
    aliceId = (await alice.register()).id;
    bob = new ApiClient(app.url);
    await bob.register();
  });

  afterAll(async () => {
    await app?.close();
    await myDb?.drop();
  });

  /** Server backends connected to the test database now (the counting session excluded). */
  const backends = {
    postgres: async () =>
      Number(
        (
          await pgDb.query<{ n: string }>(
            "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
          )
        )[0].n,
      ),
    mysql: async () => Number((await mysqlAdminQuery<{ n: number }>('SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE DB = ? AND ID <> CONNECTION_ID()', [myDb.name]))[0].n),
  };
  const slowSql = { postgres: SLOW_SQL, mysql: 'SELECT COUNT(*) AS n FROM Track a, Track b WHERE a.Milliseconds >= b.Milliseconds' };
  const fastSql = { postgres: 'SELECT COUNT(*) AS n FROM invoice', mysql: 'SELECT COUNT(*) AS n FROM Invoice' };

  it.each(['postgres', 'mysql'] as const)('keeps one user within their open connections while they hammer three saved connections at once (%s)', async (dialect) => {
    const connections: string[] = [];
    for (const name of ['one', 'two', 'three']) connections.push((await alice.post('/api/connections', { name: `${dialect} ${name}`, url: urls[dialect] })).body.id);
    let peak = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, await backends[dialect]());
        await delay(15);
      }
    })();
    // Two waves of 12 queries over the three connections (each pool alone would open 3: 9 in all).
    const statuses: number[] = [];
    for (let wave = 0; wave < 2; wave++) {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => alice.post(`/api/connections/${connections[i % 3]}/query`, { sql: i % 2 ? slowSql[dialect] : fastSql[dialect] })),
      );
      statuses.push(...answers.map((a) => a.status));
      for (const a of answers) if (a.status !== 200) expect(a.body.error.code).toBe('RATE_LIMITED');
    }
    sampling = false;
    await sampler;

    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThanOrEqual(4);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(8);
    expect(await backends[dialect]()).toBeLessThanOrEqual(4);
    expect(app.app.get(UserLimits).usage(aliceId).connections).toBeLessThanOrEqual(4);

    // Another user has their own budget.
    const bobConnection = (await bob.post('/api/connections', { name: `Bob ${dialect}`, url: urls[dialect] })).body.id;
    expect((await bob.post(`/api/connections/${bobConnection}/query`, { sql: 'SELECT 1 AS one' })).status).toBe(200);
    for (const id of connections) expect((await alice.delete(`/api/connections/${id}`)).status).toBe(204);
  });
});

describe('LLM_MAX_TURN_MS', () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let api: ApiClient;

  beforeAll(async () => {
    fake = await startFakeOpenAI({ models: ['qwen/qwen3-8b'] });
    app = await startTestApp({
      LM_STUDIO_ENDPOINT: fake.url,
      DEFAULT_MODEL: 'qwen3-8b',
      LLM_MAX_RETRIES: '0',
      STATEMENT_TIMEOUT_MS: '1000',
      LLM_STALL_TIMEOUT_MS: '1500',
      LLM_MAX_TURN_MS: '2000',
    });
    await app.app.get(ModelRegistry).refresh();
    api = new ApiClient(app.url);
    await api.register();
  });

  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it('ends a turn whose model never stops streaming, keeps the partial text, and the thread takes the next message', async () => {
    const threadId = (await api.post('/api/chat', {})).body.thread_id;
    fake.enqueue(reply.endless('and on ', { tokensPerSecond: 50 }));
    const started = Date.now();
    const answer = await streamMessage(app.url, api.token!, threadId, 'Talk forever');
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(5000);
    const kinds = types(answer.events);
    expect(kinds.filter((k) => k === 'chunk').length).toBeGreaterThan(40);
    expect(kinds.at(-1)).toBe('error');
    expect(answer.events.at(-1)!.data).toMatchObject({ code: 'UPSTREAM_FAILED', error: expect.stringMatching(/longer than 2 s.*LLM_MAX_TURN_MS/) });
    await fake.waitFor(() => fake.completions()[0]?.clientClosed === true, 2000);

    const last = (await api.get(`/api/chat/${threadId}`)).body.messages.at(-1);
    expect(last).toMatchObject({ role: 'assistant', stopped: true });
    expect(last.content).toMatch(/^and on and on/);

    fake.enqueue(reply.text('Short answer.'));
    const next = await streamMessage(app.url, api.token!, threadId, 'Now briefly');
    expect(types(next.events).at(-1)).toBe('end');
    expect(app.app.get(UserLimits).usage((await api.get('/api/auth/me')).body.id)).toEqual({ queries: 0, streams: 0, connections: 0 });
  });
});
