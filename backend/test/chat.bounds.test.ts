import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { ApiClient } from './support/api-client.js';
import { sharedPath, TEST_PG_URL } from '@aigis/test-support/env';
import { startFakeOpenAI, type FakeOpenAI } from '@aigis/test-support/fake-openai';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { analystResponder } from '@aigis/test-support/scripted-analyst';
import { streamMessage } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/**
 * Bounded results end to end (embedded default, real app, SQLite checkpoints): three huge values in one answer come
 * back cut, are stored once, reach the model only as a short excerpt, and the thread keeps loading and answering —
 * also after its newest stored turn was damaged, and its space is given back when it is deleted.
 */
const CELL = 256 * 1024;
const VALUE_BYTES = 10_000_000;
const HUGE = (n: number) => `replace(hex(zeroblob(${n / 2})), '0', 'x')`;
const THREE_HUGE = `SQL: SELECT ${HUGE(VALUE_BYTES)} AS a, ${HUGE(VALUE_BYTES)} || 'b' AS b, ${HUGE(VALUE_BYTES)} || 'c' AS c`;
const CUT_A = `…[cut: ${VALUE_BYTES.toLocaleString('en-US')} bytes]`;

let fake: FakeOpenAI;
let app: TestApp;
let api: ApiClient;
let connectionId: string;
const sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-bounds-root-'));

beforeAll(async () => {
  fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
  fake = await startFakeOpenAI({
    models: ['qwen/qwen3-8b'],
    responder: analystResponder({ sqlFor: () => `SELECT ${HUGE(VALUE_BYTES)} AS artist, 1 AS tracks UNION ALL SELECT 'b', 2`, wantsChart: () => true }),
  });
  app = await startTestApp({ SQLITE_ROOT: sqliteRoot, LM_STUDIO_ENDPOINT: fake.url, RESULT_CELL_MAX_BYTES: String(CELL) });
  await app.app.get(ModelRegistry).refresh();
  api = new ApiClient(app.url);
  await api.register();
  connectionId = (await api.post('/api/connections', { name: 'Chinook', dialect: 'sqlite', database: 'chinook.sqlite' })).body.id;
});

afterAll(async () => {
  await app?.close();
  await fake?.close();
  fs.rmSync(sqliteRoot, { recursive: true, force: true });
});

async function newThread(model?: string): Promise<string> {
  return (await api.post('/api/chat', { connection_id: connectionId, ...(model ? { model } : {}) })).body.thread_id;
}

function checkpoints(): Database.Database {
  return new Database(path.join(app.dataDir, 'checkpoints.sqlite'), { readonly: true });
}

function occurrences(haystack: string, needle: string): number {
  return haystack.split(needle).length - 1;
}

describe('three huge values in one SQL: message', () => {
  let threadId: string;

  it('answers with each value cut to the cell budget, with the marker', async () => {
    threadId = await newThread();
    const answer = await streamMessage(app.url, api.token!, threadId, THREE_HUGE);
    expect(answer.events.at(-1)!.type).toBe('end');
    const result = answer.events.find((e) => e.type === 'tool_result')!.data.content as { rows: Record<string, string>[]; row_count: number };
    expect(result.row_count).toBe(1);
    expect(result.rows[0].a.endsWith(CUT_A)).toBe(true);
    expect(result.rows[0].c.endsWith(`…[cut: ${(VALUE_BYTES + 1).toLocaleString('en-US')} bytes]`)).toBe(true);
    for (const cell of Object.values(result.rows[0])) expect(Buffer.byteLength(cell)).toBeLessThanOrEqual(CELL);
    expect(Buffer.byteLength(answer.raw)).toBeLessThan(3 * CELL + 4096);
  });

  it('stores the rows once: in the tool message, not again in sql_result', async () => {
    const db = checkpoints();
    try {
      const newest = db.prepare('SELECT CAST(checkpoint AS TEXT) FROM checkpoints WHERE thread_id = ? ORDER BY checkpoint_id DESC LIMIT 1').pluck().get(threadId) as string;
      expect(occurrences(newest, CUT_A)).toBe(1);
      expect(newest).not.toMatch(/"sql_result":\{[^}]*"rows"/);
    } finally {
      db.close();
    }
    // The state still answers with the rows (taken from the tool message).
    const state = (await api.get(`/api/chat/${threadId}/state`)).body;
    expect(state.sql_result.rows[0].a.endsWith(CUT_A)).toBe(true);
  });

  it('still loads, shows the table, and takes the next message', async () => {
    const thread = await api.get(`/api/chat/${threadId}`);
    expect(thread.status).toBe(200);
    const tool = thread.body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(tool.result.rows[0].b).toMatch(/^x+…\[cut: 10,000,001 bytes\]$/);
    const next = await streamMessage(app.url, api.token!, threadId, 'SQL: SELECT 42 AS answer');
    expect(next.events.at(-1)!.type).toBe('end');
    const again = (await api.get(`/api/chat/${threadId}`)).body;
    expect(again.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { result: { rows: unknown[] } }) => m.result.rows.length)).toEqual([1, 1]);
  });
});

describe('what the model sees of a huge result', () => {
  it('gets a short excerpt in the tool result and the chart writer prompt, never the values', async () => {
    const threadId = await newThread('qwen');
    const before = fake.requests.length;
    const answer = await streamMessage(app.url, api.token!, threadId, 'Who has the most tracks?');
    expect(answer.events.at(-1)!.type).toBe('end');
    const requests = fake.requests.slice(before).filter((r) => r.body !== undefined);
    // The assistant after ask_database, the chart writer, and the assistant after ask_analyst.
    expect(requests.some((r) => r.system.includes('Vega-Lite'))).toBe(true);
    for (const request of requests) expect(Buffer.byteLength(JSON.stringify(request.body))).toBeLessThan(60_000);
    const toolText = requests.flatMap((r) => r.messages).find((m) => m.role === 'tool' && m.content.startsWith('Ran:'))!.content;
    expect(toolText).toContain('…[10,000,000 bytes]');

    // The table and the chart of it are stored with one copy of the rows; the thread shows both whole.
    const db = checkpoints();
    try {
      const newest = db.prepare('SELECT CAST(checkpoint AS TEXT) FROM checkpoints WHERE thread_id = ? ORDER BY checkpoint_id DESC LIMIT 1').pluck().get(threadId) as string;
      expect(occurrences(newest, CUT_A)).toBe(1);
    } finally {
      db.close();
    }
    const tools = (await api.get(`/api/chat/${threadId}`)).body.messages.filter((m: { role: string }) => m.role === 'tool');
    expect(tools.map((m: { result: { type: string } }) => m.result.type)).toEqual(['sql_result', 'vega_lite_spec']);
    expect(tools[1].result.spec.data.values).toEqual(tools[0].result.rows);
  });
});

describe('a thread whose newest stored turn cannot be read', () => {
  it('loads with that turn marked unreadable, and takes the next message', async () => {
    const threadId = await newThread();
    expect((await streamMessage(app.url, api.token!, threadId, 'SQL: SELECT 1 AS first')).events.at(-1)!.type).toBe('end');
    expect((await streamMessage(app.url, api.token!, threadId, 'SQL: SELECT 2 AS second')).events.at(-1)!.type).toBe('end');
    // Damage the newest checkpoint blob, as a torn write or a bad disk would.
    const db = new Database(path.join(app.dataDir, 'checkpoints.sqlite'));
    try {
      const changed = db
        .prepare(`UPDATE checkpoints SET checkpoint = x'7b22763a0000ff' WHERE thread_id = ? AND checkpoint_id = (SELECT max(checkpoint_id) FROM checkpoints WHERE thread_id = ?)`)
        .run(threadId, threadId).changes;
      expect(changed).toBe(1);
    } finally {
      db.close();
    }
    const thread = await api.get(`/api/chat/${threadId}`);
    expect(thread.status).toBe(200);
    const messages = thread.body.messages as { role: string; content: string; unreadable?: boolean; result?: { rows: unknown[] } }[];
    expect(messages[0].content).toBe('SQL: SELECT 1 AS first');
    expect(messages.at(-1)).toMatchObject({ role: 'assistant', unreadable: true });
    expect(messages.at(-1)!.content).toMatch(/could not be read/);
    expect((await api.get(`/api/chat/${threadId}/state`)).status).toBe(200);

    const next = await streamMessage(app.url, api.token!, threadId, 'SQL: SELECT 3 AS third');
    expect(next.events.at(-1)!.type).toBe('end');
    const after = (await api.get(`/api/chat/${threadId}`)).body.messages as typeof messages;
    expect(after.filter((m) => m.unreadable)).toHaveLength(1);
    expect(after.at(-1)!.result!.rows).toEqual([{ third: 3 }]);
    expect(after.map((m) => m.content)).toContain('SQL: SELECT 1 AS first');
  });
});

describe('deleting a thread', () => {
  it('deletes its checkpoints and gives the space back to the file system', async () => {
    const threadId = await newThread();
    // ~0.75 MB stored per answer, in every later checkpoint of the thread too.
    for (let i = 0; i < 4; i++) {
      const sql = `SQL: SELECT ${HUGE(CELL * 2)} AS a, ${HUGE(CELL * 2)} AS b, ${HUGE(CELL * 2)} AS c, ${i} AS i`;
      expect((await streamMessage(app.url, api.token!, threadId, sql)).events.at(-1)!.type).toBe('end');
    }
    const file = path.join(app.dataDir, 'checkpoints.sqlite');
    const sizeOf = () => fs.statSync(file).size + (fs.existsSync(`${file}-wal`) ? fs.statSync(`${file}-wal`).size : 0);
    const before = sizeOf();
    expect(before).toBeGreaterThan(3_000_000);
    // Superseded checkpoints (each holding the whole conversation) are gone as each turn starts: what is left is the
    // previous turn's last, and the last turn's start (its `SQL:` call) and end (its result).
    const kept = checkpoints();
    try {
      expect(kept.prepare('SELECT count(*) FROM checkpoints WHERE thread_id = ?').pluck().get(threadId)).toBe(3);
    } finally {
      kept.close();
    }
    expect((await api.delete(`/api/chat/${threadId}`)).status).toBe(204);
    const db = checkpoints();
    try {
      expect(db.prepare('SELECT count(*) FROM checkpoints WHERE thread_id = ?').pluck().get(threadId)).toBe(0);
      expect(db.prepare('SELECT count(*) FROM writes WHERE thread_id = ?').pluck().get(threadId)).toBe(0);
    } finally {
      db.close();
    }
    expect(sizeOf()).toBeLessThan(before / 2);
  });
});

describe('server mode: PostgreSQL checkpoints', () => {
  let storage: PgDatabase;
  let server: TestApp;
  let client: ApiClient;
  let connection: string;

  beforeAll(async () => {
    storage = await createPgDatabase('bounds_ckpt');
    const url = new URL(TEST_PG_URL);
    url.pathname = `/${storage.name}`;
    server = await startTestApp({ SQLITE_ROOT: sqliteRoot, DATABASE_URL: url.toString(), MASTER_ENCRYPTION_KEY: 'ab'.repeat(32), RESULT_CELL_MAX_BYTES: String(CELL) });
    client = new ApiClient(server.url);
    await client.register();
    connection = (await client.post('/api/connections', { name: 'Chinook', dialect: 'sqlite', database: 'chinook.sqlite' })).body.id;
  });

  afterAll(async () => {
    await server?.close();
    await storage?.drop();
  });

  const count = async (table: string, threadId: string) =>
    Number((await storage.query<{ n: string }>(`SELECT count(*) AS n FROM aigis_checkpoints.${table} WHERE thread_id = $1`, [threadId]))[0].n);

  it('keeps the thread whole while superseded checkpoints and their blobs go, and deletes all of it with the thread', async () => {
    const threadId = (await client.post('/api/chat', { connection_id: connection })).body.thread_id as string;
    for (let i = 0; i < 4; i++) {
      const answer = await streamMessage(server.url, client.token!, threadId, `SQL: SELECT ${HUGE(CELL * 2)} AS a, ${i} AS i`);
      expect(answer.events.at(-1)!.type).toBe('end');
    }
    // The previous turn's last checkpoint, and the last turn's start and end.
    expect(await count('checkpoints', threadId)).toBe(3);
    // Every blob left is named by a kept checkpoint.
    const orphans = await storage.query<{ n: string }>(
      `SELECT count(*) AS n FROM aigis_checkpoints.checkpoint_blobs b WHERE b.thread_id = $1 AND NOT EXISTS (
         SELECT 1 FROM aigis_checkpoints.checkpoints c WHERE c.thread_id = b.thread_id AND c.checkpoint->'channel_versions'->>b.channel = b.version)`,
      [threadId],
    );
    expect(Number(orphans[0].n)).toBe(0);
    const thread = (await client.get(`/api/chat/${threadId}`)).body;
    expect(thread.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { result: { rows: { i: number }[] } }) => m.result.rows[0].i)).toEqual([0, 1, 2, 3]);

    expect((await client.delete(`/api/chat/${threadId}`)).status).toBe(204);
    for (const table of ['checkpoints', 'checkpoint_blobs', 'checkpoint_writes']) expect(await count(table, threadId)).toBe(0);
  });
});
