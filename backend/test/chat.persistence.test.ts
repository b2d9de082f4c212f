import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { ApiClient } from './support/api-client.js';
import { sharedPath, TEST_PG_URL } from '@aigis/test-support/env';
import { startFakeOpenAI, type FakeOpenAI } from '@aigis/test-support/fake-openai';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { analystResponder } from '@aigis/test-support/scripted-analyst';
import { streamMessage } from './support/sse-client.js';
import { startTestApp } from './support/test-app.js';

/** Threads live in the checkpointer (SqliteSaver embedded, PostgresSaver in server mode) and survive a restart. */
describe.each(['embedded', 'server'] as const)('threads survive a restart (%s mode)', (mode) => {
  let fake: FakeOpenAI;
  let storage: PgDatabase | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-restart-'));
  const sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-restart-root-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    fake = await startFakeOpenAI({ models: ['qwen/qwen3-8b'], responder: analystResponder({ sqlFor: () => 'SELECT COUNT(*) AS tracks FROM Track' }) });
    env = { DATA_DIR: dataDir, SQLITE_ROOT: sqliteRoot, LM_STUDIO_ENDPOINT: fake.url };
    if (mode === 'server') {
      storage = await createPgDatabase('restart');
      const url = new URL(TEST_PG_URL);
      url.pathname = `/${storage.name}`;
      env = { ...env, DATABASE_URL: url.toString(), MASTER_ENCRYPTION_KEY: 'cd'.repeat(32) };
    }
  });

  afterAll(async () => {
    await fake?.close();
    await storage?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(sqliteRoot, { recursive: true, force: true });
  });

  it('keeps messages, results, the model and the connection across a restart', async () => {
    const first = await startTestApp(env);
    const api = new ApiClient(first.url);
    let threadId: string;
    try {
      await first.app.get(ModelRegistry).refresh();
      await api.register();
      const connection = (await api.post('/api/connections', { name: 'Chinook', dialect: 'sqlite', database: 'chinook.sqlite' })).body;
      threadId = (await api.post('/api/chat', { model: 'qwen', connection_id: connection.id })).body.thread_id;
      const answer = await streamMessage(first.url, api.token!, threadId, 'How many tracks are in the store?');
      expect(answer.events.at(-1)!.type).toBe('end');
    } finally {
      await first.close();
    }
    if (mode === 'embedded') {
      expect(fs.existsSync(path.join(dataDir, 'checkpoints.sqlite'))).toBe(true);
    } else {
      const tables = await storage!.query<{ n: string }>("SELECT COUNT(*) AS n FROM information_schema.tables WHERE table_schema = 'aigis_checkpoints'");
      expect(Number(tables[0].n)).toBeGreaterThan(0);
    }

    const second = await startTestApp(env);
    try {
      await second.app.get(ModelRegistry).refresh();
      const again = new ApiClient(second.url, api.token);
      const thread = (await again.get(`/api/chat/${threadId!}`)).body;
      expect(thread.messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      expect(thread.messages[2].result).toMatchObject({ type: 'sql_result', rows: [{ tracks: 3503 }] });
      expect(thread.model).toBe('qwen3-8b');
      const state = (await again.get(`/api/chat/${threadId!}/state`)).body;
      expect(state.sql_result.rows).toEqual([{ tracks: 3503 }]);

      const before = fake.requests.length;
      const next = await streamMessage(second.url, again.token!, threadId!, 'And how many of them are long?');
      expect(next.events.at(-1)!.type).toBe('end');
      const history = JSON.stringify(fake.requests.slice(before).find((r) => r.tools.length)!.messages);
      expect(history).toContain('How many tracks are in the store?');
      expect(history).toContain('The top result is 3503');
    } finally {
      await second.close();
    }
  });
});
