import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewProposal } from '@aigis/contracts';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { QueryAuditRepository } from '../src/storage/repositories/query-audit.repository.js';
import { ApiClient } from './support/api-client.js';
import { sharedPath, TEST_PG_URL } from '@aigis/test-support/env';
import { startFakeOpenAI, type FakeOpenAI } from '@aigis/test-support/fake-openai';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { analystResponder } from '@aigis/test-support/scripted-analyst';
import { streamConfirm, streamMessage } from './support/sse-client.js';
import { startTestApp } from './support/test-app.js';

const PAIRS_SQL = 'SELECT count(*) AS pairs FROM Track t CROSS JOIN InvoiceLine l';

/** A proposal is checkpointed with the paused graph (SqliteSaver embedded, PostgresSaver in server mode). */
describe.each(['embedded', 'server'] as const)('a pending review survives a restart (%s mode)', (mode) => {
  let fake: FakeOpenAI;
  let storage: PgDatabase | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-review-restart-'));
  const sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-review-root-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    fs.copyFileSync(sharedPath('sqlite/chinook/Chinook_Sqlite.sqlite'), path.join(sqliteRoot, 'chinook.sqlite'));
    fake = await startFakeOpenAI({ models: ['qwen/qwen3-8b'], responder: analystResponder({ sqlFor: () => PAIRS_SQL }) });
    env = { DATA_DIR: dataDir, SQLITE_ROOT: sqliteRoot, LM_STUDIO_ENDPOINT: fake.url };
    if (mode === 'server') {
      storage = await createPgDatabase('review_restart');
      const url = new URL(TEST_PG_URL);
      url.pathname = `/${storage.name}`;
      env = { ...env, DATABASE_URL: url.toString(), MASTER_ENCRYPTION_KEY: 'ef'.repeat(32) };
    }
  });

  afterAll(async () => {
    await fake?.close();
    await storage?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(sqliteRoot, { recursive: true, force: true });
  });

  it('shows the proposal after a restart and runs it when approved then', async () => {
    const first = await startTestApp(env);
    const api = new ApiClient(first.url);
    let threadId: string;
    let proposal: ReviewProposal;
    let userId: string;
    try {
      await first.app.get(ModelRegistry).refresh();
      userId = (await api.register()).id;
      const connection = (await api.post('/api/connections', { name: 'Chinook', dialect: 'sqlite', database: 'chinook.sqlite' })).body;
      expect(connection.review).toBe('expensive');
      threadId = (await api.post('/api/chat', { model: 'qwen', connection_id: connection.id })).body.thread_id;
      const paused = await streamMessage(first.url, api.token!, threadId, 'How many track and invoice line pairs are there?');
      expect(paused.events.map((e) => e.type)).toEqual(['tool_call', 'confirm_required', 'end']);
      proposal = paused.events[1]!.data as ReviewProposal;
      // SQLite: no cost; both tables are read whole (3503 × 2240 combinations).
      expect(proposal.estimate).toMatchObject({ cost: null, rows: 3503 * 2240 });
      expect(proposal.estimate!.scans.map((s) => s.table).sort()).toEqual(['InvoiceLine', 'Track']);
    } finally {
      await first.close();
    }

    const second = await startTestApp(env);
    try {
      await second.app.get(ModelRegistry).refresh();
      const again = new ApiClient(second.url, api.token);
      expect((await again.get(`/api/chat/${threadId!}`)).body.pending_review).toEqual(proposal!);
      const resumed = await streamConfirm(second.url, again.token!, threadId!, { decision: 'approve', proposal_id: proposal!.id });
      expect(resumed.events.map((e) => e.type).slice(0, 1)).toEqual(['tool_result']);
      expect(resumed.events[0]!.data).toMatchObject({ content: { type: 'sql_result', rows: [{ pairs: 3503 * 2240 }] } });
      expect(resumed.events.at(-1)!.type).toBe('end');
      const runs = (await second.app.get(QueryAuditRepository).listByUser(userId!)).filter((a) => a.review_id === proposal!.id);
      expect(runs).toMatchObject([{ sql: PAIRS_SQL, status: 'ok' }]);
      expect((await again.get(`/api/chat/${threadId!}`)).body.pending_review).toBeNull();
    } finally {
      await second.close();
    }
  });
});
