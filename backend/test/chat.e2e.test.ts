import path from 'node:path';
import Database from 'better-sqlite3';
import type { SqlResultContent, StreamEvent, VegaLiteSpecContent } from '@aigis/contracts';
import { compile } from 'vega-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { ApiClient } from './support/api-client.js';
import { TEST_MYSQL_URL, TEST_PG_URL } from '@aigis/test-support/env';
import { reply, startFakeOpenAI, type FakeOpenAI } from '@aigis/test-support/fake-openai';
import { createMysqlDatabase, createPgDatabase, loadMysqlChinook, loadPgChinook, type MysqlDatabase, type PgDatabase } from './support/fixtures.js';
import { analystResponder, dialectOf, SQL_WRITER_MARK } from '@aigis/test-support/scripted-analyst';
import { streamMessage } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const PASSWORD = 'never-in-a-prompt-7731';
const TOP_ARTISTS = 'Which 5 artists have the most tracks? Chart it.';

const TOP_ARTISTS_SQL: Record<string, string> = {
  PostgreSQL:
    'SELECT ar.name AS artist, COUNT(*) AS tracks FROM artist ar JOIN album al ON al.artist_id = ar.artist_id JOIN track t ON t.album_id = al.album_id GROUP BY ar.name ORDER BY tracks DESC, ar.name LIMIT 5',
  'MySQL/MariaDB':
    'SELECT ar.Name AS artist, COUNT(*) AS tracks FROM Artist ar JOIN Album al ON al.ArtistId = ar.ArtistId JOIN Track t ON t.AlbumId = al.AlbumId GROUP BY ar.Name ORDER BY tracks DESC, ar.Name LIMIT 5',
};

const types = (events: StreamEvent[]) => events.map((e) => e.type);
const turnRequests = (fake: FakeOpenAI, from: number) => fake.completions().filter((r) => r.seq > from);
const lastSeq = (fake: FakeOpenAI) => fake.requests.at(-1)?.seq ?? 0;

describe('the agent over HTTP, with a scripted OpenAI-compatible upstream', () => {
  let lmStudio: FakeOpenAI;
  let deepseek: FakeOpenAI;
  let app: TestApp;
  let api: ApiClient;
  let pgDb: PgDatabase;
  let myDb: MysqlDatabase;
  const connectionIds: Record<'postgres' | 'mysql', string> = { postgres: '', mysql: '' };
  let truth: { artist: string; tracks: number }[];

  const responder = analystResponder({
    sqlFor: (question, dialect) => (question.includes('artists') ? TOP_ARTISTS_SQL[dialect] : dialect === 'PostgreSQL' ? 'SELECT COUNT(*) AS tracks FROM track' : 'SELECT COUNT(*) AS tracks FROM Track'),
    wantsChart: (question) => /chart/i.test(question),
  });

  async function newThread(model: string, connection: 'postgres' | 'mysql' = 'postgres'): Promise<string> {
    const created = await api.post('/api/chat', { model, connection_id: connectionIds[connection] });
    expect(created.status).toBe(201);
    return created.body.thread_id;
  }

  const send = (threadId: string, content: string, options?: Parameters<typeof streamMessage>[4]) => streamMessage(app.url, api.token!, threadId, content, options);

  beforeAll(async () => {
    [lmStudio, deepseek] = await Promise.all([
      startFakeOpenAI({ models: ['openai/gpt-oss-20b', 'qwen/qwen3-8b'], responder }),
      startFakeOpenAI({ models: ['deepseek-chat'], responder }),
    ]);
    [pgDb, myDb] = await Promise.all([createPgDatabase('chat'), createMysqlDatabase('chat')]);
    await Promise.all([loadPgChinook(pgDb), loadMysqlChinook(myDb)]);
    truth = (
      await pgDb.query<{ artist: string; tracks: string }>(
        'SELECT ar.name AS artist, COUNT(*) AS tracks FROM artist ar JOIN album al ON al.artist_id = ar.artist_id JOIN track t ON t.album_id = al.album_id GROUP BY ar.name ORDER BY tracks DESC, ar.name LIMIT 5',
      )
    ).map((r) => ({ artist: r.artist, tracks: Number(r.tracks) }));
    app = await startTestApp({
      LM_STUDIO_ENDPOINT: lmStudio.url,
      DEEPSEEK_API_KEY: 'sk-test-deepseek',
      DEEPSEEK_BASE_URL: deepseek.url,
      LLM_MAX_RETRIES: '2',
      SSE_PING_MS: '100',
    });
    await app.app.get(ModelRegistry).refresh();
    api = new ApiClient(app.url);
    await api.register();
    const pgUrl = new URL(TEST_PG_URL);
    pgUrl.pathname = `/${pgDb.name}`;
    pgUrl.password = PASSWORD;
    connectionIds.postgres = (await api.post('/api/connections', { name: 'Chinook PG', url: pgUrl.toString() })).body.id;
    const myUrl = new URL(TEST_MYSQL_URL);
    myUrl.pathname = `/${myDb.name}`;
    connectionIds.mysql = (await api.post('/api/connections', { name: 'Chinook MariaDB', url: myUrl.toString() })).body.id;
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([lmStudio?.close(), deepseek?.close(), pgDb?.drop(), myDb?.drop()]);
  });

  it.each(['postgres', 'mysql'] as const)('runs the whole tool loop on %s Chinook: question → SQL → rows → chart → streamed answer', async (dialect) => {
    const threadId = await newThread('qwen', dialect);
    const before = lastSeq(lmStudio);
    const answer = await send(threadId, TOP_ARTISTS);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/text\/event-stream/);
    const kinds = types(answer.events);
    expect(kinds.slice(0, 4)).toEqual(['tool_call', 'tool_result', 'tool_call', 'tool_result']);
    expect(kinds.at(-1)).toBe('end');
    expect(kinds.filter((k) => k === 'chunk').length).toBeGreaterThan(1);

    const [call, result, chartCall, chartResult] = answer.events as [StreamEvent & { type: 'tool_call' }, StreamEvent & { type: 'tool_result' }, StreamEvent & { type: 'tool_call' }, StreamEvent & { type: 'tool_result' }];
    expect(call.data).toMatchObject({ name: 'ask_database', args: { question: TOP_ARTISTS } });
    expect(result.data.id).toBe(call.data.id);
    const rows = result.data.content as SqlResultContent;
    expect(rows.type).toBe('sql_result');
    expect(rows.sql).toContain('LIMIT 5');
    expect(rows.rows.map((r) => ({ artist: r.artist, tracks: Number(r.tracks) }))).toEqual(truth);

    expect(chartCall.data.name).toBe('ask_analyst');
    const chart = chartResult.data.content as VegaLiteSpecContent;
    expect(chart.type).toBe('vega_lite_spec');
    expect(chart.fallback).toBeUndefined();
    expect((chart.spec.data as { values: unknown[] }).values).toEqual(rows.rows);
    expect(() => compile(chart.spec as never)).not.toThrow();

    const text = answer.events.filter((e) => e.type === 'chunk').map((e) => (e.data as { content: string }).content).join('');
    expect(text).toBe(`The top result is ${truth[0].artist} with ${truth[0].tracks}.`);
    expect((answer.events.at(-1)!.data as { full_response: string }).full_response).toBe(text);

    // Every upstream call of the turn (assistant, SQL writer, chart writer) went to the thread's model.
    const requests = turnRequests(lmStudio, before);
    expect(requests.length).toBe(5);
    expect(new Set(requests.map((r) => r.model))).toEqual(new Set(['qwen/qwen3-8b']));
    expect(requests.filter((r) => r.system.includes(SQL_WRITER_MARK)).map(dialectOf)).toEqual([dialect === 'postgres' ? 'PostgreSQL' : 'MySQL/MariaDB']);
    // The password never reaches a prompt.
    expect(JSON.stringify(requests.map((r) => r.body))).not.toContain(PASSWORD);

    const thread = await api.get(`/api/chat/${threadId}`);
    expect(thread.body.title).toBe(TOP_ARTISTS);
    expect(thread.body.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(thread.body.messages[2].result).toEqual(rows);
    expect(thread.body.messages[4].result.type).toBe('vega_lite_spec');
    const state = await api.get(`/api/chat/${threadId}/state`);
    expect(state.body).toMatchObject({ model_name: 'qwen3-8b', connection: { connection_id: connectionIds[dialect] } });
    expect(state.body.sql_result.rows).toEqual(rows.rows);
    expect(state.body.db_schema).toMatch(/artist/i);
  });

  it('feeds a wrong column back to the model, which corrects its SQL', async () => {
    const threadId = await newThread('qwen');
    const before = lastSeq(lmStudio);
    lmStudio.script((request) =>
      request.system.includes(SQL_WRITER_MARK)
        ? reply.text(request.messages.some((m) => m.role === 'assistant') ? '```sql\nSELECT name AS artist FROM artist ORDER BY artist_id LIMIT 3\n```' : '```sql\nSELECT nme FROM artist\n```')
        : responder(request),
    );
    try {
      const answer = await send(threadId, 'Name three artists');
      const result = answer.events.find((e) => e.type === 'tool_result')!.data as { content: SqlResultContent };
      expect(result.content.type).toBe('sql_result');
      expect(result.content.rows).toEqual([{ artist: 'AC/DC' }, { artist: 'Accept' }, { artist: 'Aerosmith' }]);
      const writerCalls = turnRequests(lmStudio, before).filter((r) => r.system.includes(SQL_WRITER_MARK));
      expect(writerCalls).toHaveLength(2);
      expect(writerCalls[1].lastContent).toMatch(/column_not_found/);
      expect(writerCalls[1].lastContent).toMatch(/column "nme" does not exist/);
    } finally {
      lmStudio.script(responder);
    }
    const db = new Database(path.join(app.dataDir, 'aigis.sqlite'), { readonly: true });
    const audit = db.prepare('SELECT status, model_name FROM query_audit WHERE thread_id = ? ORDER BY created_at').all(threadId);
    db.close();
    expect(audit).toEqual([
      { status: 'failed', model_name: 'qwen3-8b' },
      { status: 'ok', model_name: 'qwen3-8b' },
    ]);
  });

  it('answers a write statement from the model with a correction, and nothing is written', async () => {
    const threadId = await newThread('qwen');
    lmStudio.script((request) =>
      request.system.includes(SQL_WRITER_MARK)
        ? reply.text(request.messages.some((m) => m.role === 'assistant') ? 'SELECT COUNT(*) AS tracks FROM track' : 'DELETE FROM track')
        : responder(request),
    );
    try {
      const answer = await send(threadId, 'How many tracks are there?');
      const result = answer.events.find((e) => e.type === 'tool_result')!.data as { content: SqlResultContent };
      expect(result.content.rows).toEqual([{ tracks: 3503 }]);
      const retry = lmStudio.completions().filter((r) => r.system.includes(SQL_WRITER_MARK)).at(-1)!;
      expect(retry.lastContent).toMatch(/rejected/);
      expect(retry.lastContent).toMatch(/DELETE/);
    } finally {
      lmStudio.script(responder);
    }
    expect((await pgDb.query<{ n: string }>('SELECT COUNT(*) AS n FROM track'))[0].n).toBe('3503');
  });

  it('corrects malformed tool arguments and calls to unknown tools instead of crashing', async () => {
    const threadId = await newThread('qwen');
    let step = 0;
    lmStudio.script((request) => {
      if (request.tools.length === 0) return responder(request);
      step++;
      if (step === 1) return reply.toolCalls({ name: 'ask_database', args: '{question: how many tracks}' });
      if (step === 2) return reply.toolCalls({ name: 'drop_database', args: { really: true } });
      if (step === 3) return reply.toolCalls({ name: 'ask_database', args: { question: 'How many tracks are there?' } });
      return responder(request);
    });
    try {
      const answer = await send(threadId, 'How many tracks are there?');
      const results = answer.events.filter((e) => e.type === 'tool_result').map((e) => (e.data as { content: { type: string; code?: string } }).content);
      expect(results.slice(0, 2)).toEqual([
        expect.objectContaining({ type: 'error', code: 'INVALID_TOOL_ARGUMENTS' }),
        expect.objectContaining({ type: 'error', code: 'UNKNOWN_TOOL' }),
      ]);
      expect(results[2]).toMatchObject({ type: 'sql_result', rows: [{ tracks: 3503 }] });
      expect(types(answer.events).at(-1)).toBe('end');
      const corrections = lmStudio.completions().filter((r) => r.tools.length > 0).slice(-3);
      expect(corrections[0].lastContent).toMatch(/not valid JSON/);
      expect(corrections[1].lastContent).toMatch(/no tool named "drop_database"/);
    } finally {
      lmStudio.script(responder);
    }
  });

  it('keeps two threads on two models at once, and switches one between messages', async () => {
    const [a, b] = await Promise.all([newThread('qwen'), newThread('deepseek')]);
    lmStudio.reset();
    deepseek.reset();
    lmStudio.script(analystResponder({ sqlFor: () => 'SELECT COUNT(*) AS tracks FROM track', tokensPerSecond: 200 }));
    deepseek.script(analystResponder({ sqlFor: () => 'SELECT COUNT(*) AS albums FROM album', tokensPerSecond: 200 }));
    try {
      const [answerA, answerB] = await Promise.all([send(a, 'thread A: how many tracks?'), send(b, 'thread B: how many albums?')]);
      expect(types(answerA.events).at(-1)).toBe('end');
      expect(types(answerB.events).at(-1)).toBe('end');
      const lm = lmStudio.completions();
      const ds = deepseek.completions();
      expect(lm.length).toBeGreaterThanOrEqual(3);
      expect(ds.length).toBeGreaterThanOrEqual(3);
      expect(new Set(lm.map((r) => r.model))).toEqual(new Set(['qwen/qwen3-8b']));
      expect(new Set(ds.map((r) => r.model))).toEqual(new Set(['deepseek-chat']));
      expect(lm.every((r) => JSON.stringify(r.messages).includes('thread A'))).toBe(true);
      expect(ds.every((r) => JSON.stringify(r.messages).includes('thread B'))).toBe(true);

      const switched = await api.post(`/api/chat/${a}/model`, { name: 'gpt_oss' });
      expect(switched.status).toBe(200);
      expect(switched.body).toMatchObject({ thread_id: a, model: 'gpt-oss-20b', source: 'thread' });
      expect(switched.body.models['gpt-oss-20b']).toBe(true);
      const before = lastSeq(lmStudio);
      const next = await send(a, 'thread A again: and now?');
      expect(types(next.events).at(-1)).toBe('end');
      const turn = turnRequests(lmStudio, before);
      expect(turn.length).toBe(3);
      expect(new Set(turn.map((r) => r.model))).toEqual(new Set(['openai/gpt-oss-20b']));
      // The new model sees the conversation so far.
      expect(JSON.stringify(turn[0].messages)).toContain('thread A: how many tracks?');
      expect((await api.get(`/api/chat/${a}/model`)).body.model).toBe('gpt-oss-20b');
    } finally {
      lmStudio.script(responder);
      deepseek.script(responder);
    }
  });

  it('rejects unknown model names with the valid ones, and unavailable ones with the alternatives', async () => {
    const threadId = await newThread('qwen');
    const unknown = await api.post(`/api/chat/${threadId}/model`, { name: 'gpt-17' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('UNKNOWN_MODEL');
    expect(unknown.body.error.message).toMatch(/qwen3-8b/);
    expect(unknown.body.error.message).toMatch(/deepseek-chat/);
    const unavailable = await api.post(`/api/chat/${threadId}/model`, { name: 'claude-sonnet-4-5' });
    expect(unavailable.status).toBe(409);
    expect(unavailable.body.error.message).toMatch(/ANTHROPIC_API_KEY/);
    expect((await api.post('/api/chat', { model: 'nope' })).status).toBe(400);
  });

  it('streams events in order on the wire, with keep-alive pings while the model thinks', async () => {
    const threadId = await newThread('qwen');
    lmStudio.enqueue(reply.text('Thinking done.', { firstTokenDelayMs: 450 }));
    const answer = await send(threadId, 'Say something slowly');
    expect(answer.raw).toMatch(/^: ping\n\n/m);
    const order = [...answer.raw.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(order.at(-1)).toBe('end');
    expect(order.filter((t) => t === 'chunk').length).toBe(2);
    expect(answer.raw.indexOf(': ping')).toBeLessThan(answer.raw.indexOf('event: chunk'));
  });

  it('runs `SQL:` messages directly, without a model, and the result can be charted next', async () => {
    const threadId = await newThread('qwen');
    const before = lastSeq(lmStudio);
    const answer = await send(threadId, 'SQL: SELECT genre_id, COUNT(*) AS tracks FROM track GROUP BY genre_id ORDER BY genre_id');
    expect(types(answer.events)).toEqual(['tool_call', 'tool_result', 'end']);
    expect(answer.events[0].data).toMatchObject({ name: 'ask_database', args: { sql: expect.stringMatching(/^SELECT genre_id/) } });
    const result = (answer.events[1].data as { content: SqlResultContent }).content;
    expect(result.row_count).toBe(25);
    expect(turnRequests(lmStudio, before)).toHaveLength(0);

    const rejected = await send(threadId, 'sql: DROP TABLE track');
    expect((rejected.events[1].data as { content: { type: string; code: string } }).content).toMatchObject({ type: 'error', code: 'SQL_REJECTED' });

    lmStudio.script((request) =>
      request.tools.length && request.lastMessage?.role === 'user'
        ? reply.toolCalls({ name: 'ask_analyst', args: { request: 'tracks per genre' } })
        : request.system.includes('Vega-Lite')
          ? reply.text('{"mark":"bar","encoding":{"x":{"field":"genre_id","type":"ordinal"},"y":{"field":"tracks","type":"quantitative"}}}')
          : reply.text('Here is the chart.'),
    );
    try {
      const chart = await send(threadId, 'Chart that');
      const spec = (chart.events.find((e) => e.type === 'tool_result')!.data as { content: VegaLiteSpecContent }).content.spec;
      expect((spec.data as { values: unknown[] }).values).toHaveLength(25);
    } finally {
      lmStudio.script(responder);
    }
    const thread = await api.get(`/api/chat/${threadId}`);
    expect(thread.body.messages.slice(0, 3).map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('stops the upstream request when the client goes away, and keeps what had streamed', async () => {
    const threadId = await newThread('qwen');
    lmStudio.enqueue(reply.text(Array.from({ length: 200 }, (_, i) => `word${i} `), { tokensPerSecond: 20 }));
    const before = lastSeq(lmStudio);
    const controller = new AbortController();
    await send(threadId, 'Tell me a long story', {
      signal: controller.signal,
      onEvent: (_event, index) => {
        if (index === 2) controller.abort();
      },
    });
    await lmStudio.waitFor(() => turnRequests(lmStudio, before).some((r) => r.clientClosed), 5000);
    const upstream = turnRequests(lmStudio, before)[0];
    expect(upstream.clientClosed).toBe(true);
    expect(upstream.clientClosedAt! - upstream.receivedAt).toBeLessThan(5000);

    // The partial answer is kept and marked stopped; the thread takes the next message normally.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const thread = await api.get(`/api/chat/${threadId}`);
    const last = thread.body.messages.at(-1);
    expect(last).toMatchObject({ role: 'assistant', stopped: true });
    expect(last.content).toMatch(/^word0 word1 word2/);
    const next = await send(threadId, 'How many tracks are there?');
    expect(types(next.events).at(-1)).toBe('end');
  });

  it('cancels the running database query when the client goes away', async () => {
    const threadId = await newThread('qwen');
    // A 4-way cross join is "expensive": the thread skips review before run, so the query runs and can be cancelled.
    expect((await api.patch(`/api/chat/${threadId}`, { review: 'never' })).status).toBe(200);
    const slowSql = 'SELECT COUNT(*) AS n FROM track a, track b, track c, track d';
    lmStudio.script((request) => (request.system.includes(SQL_WRITER_MARK) ? reply.text(slowSql) : responder(request)));
    const controller = new AbortController();
    const running = send(threadId, 'Count every combination of four tracks', { signal: controller.signal });
    try {
      const active = async () =>
        // The adapter runs user SQL through a cursor, so the active statement is a FETCH: count any other active backend here.
        (await pgDb.query<{ n: string }>("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()"))[0].n;
      for (let i = 0; i < 100 && (await active()) === '0'; i++) await new Promise((r) => setTimeout(r, 50));
      expect(await active()).toBe('1');
      controller.abort();
      await running;
      let still = '1';
      for (let i = 0; i < 60 && still !== '0'; i++) {
        await new Promise((r) => setTimeout(r, 50));
        still = await active();
      }
      expect(still).toBe('0');
    } finally {
      lmStudio.script(responder);
    }
    await new Promise((r) => setTimeout(r, 200));
    const db = new Database(path.join(app.dataDir, 'aigis.sqlite'), { readonly: true });
    const audit = db.prepare('SELECT status FROM query_audit WHERE thread_id = ?').all(threadId);
    db.close();
    expect(audit).toEqual([{ status: 'cancelled' }]);
  });

  it('retries HTTP 429 and 5xx upstream answers, and reports an upstream that keeps failing', async () => {
    const threadId = await newThread('qwen');
    const before = lastSeq(lmStudio);
    lmStudio.enqueue(reply.rateLimited(0), reply.error(503));
    const ok = await send(threadId, 'How many tracks are there?');
    expect(types(ok.events).at(-1)).toBe('end');
    expect(turnRequests(lmStudio, before).slice(0, 3).map((r) => r.status)).toEqual([429, 503, 200]);

    lmStudio.enqueue(...reply.times(3, reply.error(500)));
    const failed = await send(threadId, 'And how many albums?');
    expect(types(failed.events)).toEqual(['error']);
    expect(failed.events[0].data).toMatchObject({ code: 'UPSTREAM_FAILED', error: expect.stringMatching(/HTTP 500/) });
    // Nothing is lost: the thread still has the earlier turn and takes the next message.
    const thread = await api.get(`/api/chat/${threadId}`);
    expect(thread.body.messages[0]).toMatchObject({ role: 'user', content: 'How many tracks are there?' });
    expect(types((await send(threadId, 'How many tracks, once more?')).events).at(-1)).toBe('end');
  });
});

describe('models that stop answering or are missing', () => {
  let lmStudio: FakeOpenAI;
  let deepseek: FakeOpenAI;
  let app: TestApp;
  let api: ApiClient;
  let threadId: string;

  beforeAll(async () => {
    const responder = analystResponder({ sqlFor: () => 'SELECT 1 AS one' });
    [lmStudio, deepseek] = await Promise.all([startFakeOpenAI({ models: ['qwen/qwen3-8b'], responder }), startFakeOpenAI({ responder })]);
    app = await startTestApp({
      LM_STUDIO_ENDPOINT: lmStudio.url,
      DEEPSEEK_API_KEY: 'sk-x',
      DEEPSEEK_BASE_URL: deepseek.url,
      LLM_MAX_RETRIES: '0',
      LLM_TIMEOUT_MS: '1000',
      LLM_STALL_TIMEOUT_MS: '1500',
      STATEMENT_TIMEOUT_MS: '1000',
      MODEL_PROBE_TTL_S: '1',
      MODEL_PROBE_TIMEOUT_MS: '300',
    });
    await app.app.get(ModelRegistry).refresh();
    api = new ApiClient(app.url);
    await api.register();
    threadId = (await api.post('/api/chat', { model: 'qwen3-8b' })).body.thread_id;
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([lmStudio?.close(), deepseek?.close()]);
  });

  it('times out an upstream that never answers', async () => {
    lmStudio.enqueue(reply.hang());
    const started = Date.now();
    const answer = await streamMessage(app.url, api.token!, threadId, 'hello?');
    expect(types(answer.events)).toEqual(['error']);
    expect(answer.events[0].data).toMatchObject({ code: 'UPSTREAM_FAILED', error: expect.stringMatching(/did not answer within 1 s/) });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('stops a stream that stalls after it started, keeping the partial text', async () => {
    lmStudio.enqueue(reply.text('one two three four five', { stallAfter: 2 }));
    const answer = await streamMessage(app.url, api.token!, threadId, 'count please');
    expect(types(answer.events)).toEqual(['chunk', 'chunk', 'error']);
    expect(answer.events[2].data).toMatchObject({ code: 'UPSTREAM_FAILED', error: expect.stringMatching(/stopped responding for 2 s/) });
    const last = (await api.get(`/api/chat/${threadId}`)).body.messages.at(-1);
    expect(last).toMatchObject({ role: 'assistant', content: 'one two' });
  });

  it('fails fast when the thread’s model becomes unavailable, naming it and the alternatives', async () => {
    await lmStudio.close();
    const registry = app.app.get(ModelRegistry);
    await new Promise((r) => setTimeout(r, 1100));
    await registry.refresh();
    const models = (await api.get('/api/models')).body as { name: string; available: boolean }[];
    expect(models.find((m) => m.name === 'qwen3-8b')!.available).toBe(false);
    const before = (await api.get(`/api/chat/${threadId}`)).body.messages.length;
    const started = Date.now();
    const answer = await streamMessage(app.url, api.token!, threadId, 'are you there?');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(types(answer.events)).toEqual(['error']);
    expect(answer.events[0].data).toMatchObject({ code: 'MODEL_UNAVAILABLE', error: expect.stringMatching(/qwen3-8b.*deepseek-chat/s) });
    expect((await api.get(`/api/chat/${threadId}`)).body.messages.length).toBe(before);
  });
});

describe('with no model configured at all', () => {
  let app: TestApp;
  let api: ApiClient;
  beforeAll(async () => {
    app = await startTestApp({ DEMO_DATABASE: 'true' });
    api = new ApiClient(app.url);
    await api.register();
  });
  afterAll(() => app?.close());

  it('says how to enable a model, and direct SQL still works on the demo store', async () => {
    const providers = await api.get('/api/models/providers');
    expect(providers.body.map((p: { env: string[] }) => p.env[0])).toEqual(expect.arrayContaining(['LM_STUDIO_ENDPOINT', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OLLAMA_BASE_URL']));
    const [demo] = (await api.get('/api/connections')).body;
    expect(demo).toMatchObject({ name: 'Demo store', is_demo: true });
    const threadId = (await api.post('/api/chat', { connection_id: demo.id })).body.thread_id;
    expect((await api.get(`/api/chat/${threadId}/model`)).body).toMatchObject({ model: null, source: null });

    const answer = await streamMessage(app.url, api.token!, threadId, 'What sold best last year?');
    expect(types(answer.events)).toEqual(['error']);
    expect(answer.events[0].data).toMatchObject({ code: 'NO_MODEL', error: expect.stringMatching(/LM_STUDIO_ENDPOINT.*DEEPSEEK_API_KEY/s) });

    const sql = await streamMessage(app.url, api.token!, threadId, 'SQL: SELECT COUNT(*) AS orders FROM orders');
    expect(types(sql.events)).toEqual(['tool_call', 'tool_result', 'end']);
    expect(((sql.events[1].data as { content: SqlResultContent }).content.rows[0].orders as number)).toBeGreaterThan(20_000);
  });
});
