import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StreamEvent } from '@aigis/contracts';
import { Annotation, END, START, StateGraph } from '@langchain/langgraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AgentService } from '../src/agent/agent.service.js';
import { AigisState } from '../src/agent/state.js';
import { ApiClient } from './support/api-client.js';
import { sharedPath } from '@aigis/test-support/env';
import { reply, startFakeOpenAI, startSilentServer, type FakeOpenAI } from '@aigis/test-support/fake-openai';
import { streamMessage } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

const types = (events: StreamEvent[]) => events.map((e) => e.type);

describe('one provider down, a large schema', () => {
  let silent: Awaited<ReturnType<typeof startSilentServer>>;
  let deepseek: FakeOpenAI;
  let app: TestApp;
  let api: ApiClient;
  let connectionId: string;
  const sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-ms-'));

  beforeAll(async () => {
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    // LM Studio accepts the connection and never answers; DeepSeek works.
    silent = await startSilentServer();
    deepseek = await startFakeOpenAI({ models: ['deepseek-chat'] });
    app = await startTestApp({
      LM_STUDIO_ENDPOINT: silent.url,
      DEEPSEEK_API_KEY: 'sk-x',
      DEEPSEEK_BASE_URL: deepseek.url,
      MODEL_PROBE_TIMEOUT_MS: '8000',
      SQLITE_ROOT: sqliteRoot,
      // Chinook does not fit: the prompt gets a table list and the model reads tables on demand.
      SCHEMA_PROMPT_BUDGET: '400',
    });
    api = new ApiClient(app.url);
    await api.register();
    connectionId = (await api.post('/api/connections', { name: 'Chinook', dialect: 'sqlite', database: 'chinook.sqlite' })).body.id;
  });

  afterAll(async () => {
    await app?.close();
    await Promise.all([silent?.close(), deepseek?.close()]);
    fs.rmSync(sqliteRoot, { recursive: true, force: true });
  });

  it('lists models at once and answers on a working provider without waiting for the dead one', async () => {
    // The silent provider's probe takes MODEL_PROBE_TIMEOUT_MS (8 s, counted from the app's start) to give up; listing and answering must not
    // wait for it. Bounds are half that timeout (a loaded CI machine stays well inside them), and the probe is
    // checked to be still pending once the answer is in, so "did not wait" does not rest on a clock alone.
    const qwenNow = async () =>
      ((await api.get('/api/models')).body as { name: string; available: boolean; reason?: string }[]).find((m) => m.name === 'qwen3-8b');
    let started = Date.now();
    const models = await api.get('/api/models');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(models.body.find((m: { name: string }) => m.name === 'deepseek-chat').available).toBe(true);

    const threadId = (await api.post('/api/chat', { model: 'deepseek' })).body.thread_id;
    deepseek.enqueue(reply.text('Hello from DeepSeek.'));
    started = Date.now();
    const answer = await streamMessage(app.url, api.token!, threadId, 'hi');
    expect(types(answer.events)).toEqual(['chunk', 'chunk', 'chunk', 'end']);
    expect(Date.now() - started).toBeLessThan(4000);
    expect((await qwenNow())?.reason ?? '').not.toMatch(/did not answer/);

    // The probe of the silent server gives up after MODEL_PROBE_TIMEOUT_MS; until then it is "checking".
    let qwen: { available: boolean; reason?: string } | undefined;
    for (let i = 0; i < 150 && !qwen?.reason?.includes('did not answer'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      qwen = await qwenNow();
    }
    expect(qwen!.available).toBe(false);
    expect(qwen!.reason).toMatch(/did not answer within 8 s/);
  });

  it('gives the model a table list and describe_table when the schema exceeds its budget', async () => {
    const threadId = (await api.post('/api/chat', { model: 'deepseek' })).body.thread_id;
    const bound = await api.post(`/api/chat/${threadId}/connection`, { connection_id: connectionId });
    expect(bound.body).toMatchObject({ tables: 11, markdown_mode: 'compact' });
    const state = (await api.get(`/api/chat/${threadId}/state`)).body;
    expect(state.db_schema.length).toBeLessThanOrEqual(400);
    expect(state.db_schema).toMatch(/InvoiceLine/);

    deepseek.reset();
    deepseek.script((request) => {
      if (request.tools.length === 0) return undefined;
      if (request.lastMessage?.role === 'user') return reply.toolCalls({ name: 'describe_table', args: { table: 'invoiceline' } });
      return reply.text('InvoiceLine has a UnitPrice column.');
    });
    const answer = await streamMessage(app.url, api.token!, threadId, 'What columns does the invoice line table have?');
    expect(types(answer.events).slice(0, 2)).toEqual(['tool_call', 'tool_result']);
    const result = (answer.events[1].data as { content: { type: string; text: string } }).content;
    expect(result.type).toBe('text');
    expect(result.text).toMatch(/UnitPrice/);
    expect(result.text).toMatch(/InvoiceId/);
    const first = deepseek.completions()[0];
    expect(first.toolNames).toEqual(expect.arrayContaining(['ask_database', 'ask_analyst', 'describe_table']));
    expect(first.system).toMatch(/describe_table/);
  });
  it('continues a thread whose checkpoint stored the schema mode as schema_mode (before it was named markdown_mode)', async () => {
    // A connection whose schema this app has never read, and the compact schema markdown of the same database.
    const file = path.join(sqliteRoot, 'old-thread.sqlite');
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), file);
    const oldConnection = (await api.post('/api/connections', { name: 'Chinook (old thread)', dialect: 'sqlite', database: 'old-thread.sqlite' })).body.id;
    const stored = (await api.get(`/api/connections/${connectionId}/schema`)).body;
    expect(stored.markdown_mode).toBe('compact');
    const me = (await api.get('/api/auth/me')).body;
    const threadId = (await api.post('/api/chat', { model: 'deepseek' })).body.thread_id;

    // The thread's settings written as the earlier code wrote them: its state had schema_mode, no markdown_mode.
    const { markdown_mode: _renamed, ...earlierChannels } = AigisState.spec;
    const saver = app.app.get(AgentService).graph.checkpointer;
    if (!saver || typeof saver === 'boolean') throw new Error('the agent graph has no checkpointer');
    const earlier = new StateGraph(Annotation.Root(earlierChannels)).addNode('assistant', () => ({})).addEdge(START, 'assistant').addEdge('assistant', END).compile({ checkpointer: saver });
    await earlier.updateState(
      { configurable: { thread_id: threadId } },
      { db_schema: stored.markdown, schema_mode: 'compact', connection: { user_id: me.id, connection_id: oldConnection }, sql_result: null },
      'assistant',
    );
    const checkpoint = (await saver.getTuple({ configurable: { thread_id: threadId } }))!.checkpoint;
    expect(checkpoint.channel_values).toMatchObject({ schema_mode: 'compact', db_schema: stored.markdown });
    expect(checkpoint.channel_values).not.toHaveProperty('markdown_mode');
    expect((await api.get(`/api/chat/${threadId}/state`)).body.db_schema).toBe(stored.markdown);

    // The database cannot be read now: the prompt falls back to the stored schema, and still knows it is abbreviated.
    fs.renameSync(file, `${file}.away`);
    deepseek.reset();
    deepseek.enqueue(reply.text('The database is not reachable right now.'));
    const offline = await streamMessage(app.url, api.token!, threadId, 'Which tables hold invoices?');
    expect(types(offline.events).at(-1)).toBe('end');
    let request = deepseek.completions()[0];
    expect(request.system).toContain(stored.markdown);
    expect(request.system).toMatch(/The schema below is abbreviated/);
    expect(request.toolNames).toContain('describe_table');

    // Readable again: each turn reads the schema for its question, as for any thread.
    fs.renameSync(`${file}.away`, file);
    deepseek.reset();
    deepseek.enqueue(reply.text('Invoice and InvoiceLine.'));
    const online = await streamMessage(app.url, api.token!, threadId, 'Which tables hold invoices?');
    expect(types(online.events).at(-1)).toBe('end');
    request = deepseek.completions()[0];
    expect(request.system).toMatch(/The tables most relevant to this question are given in full/);
    expect(request.toolNames).toContain('describe_table');
    expect((await api.get(`/api/chat/${threadId}`)).body.messages.map((m: { content: string }) => m.content)).toContain('Invoice and InvoiceLine.');
  });
});
