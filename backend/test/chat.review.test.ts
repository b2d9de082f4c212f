import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReviewProposal, StreamEvent } from '@aigis/contracts';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { QueryAuditRepository } from '../src/storage/repositories/query-audit.repository.js';
import { ReviewDecisionsRepository } from '../src/storage/repositories/review-decisions.repository.js';
import { ApiClient } from './support/api-client.js';
import { TEST_MYSQL_URL, TEST_PG_URL } from '@aigis/test-support/env';
import { reply, startFakeOpenAI, type FakeOpenAI, type FakeRequest } from '@aigis/test-support/fake-openai';
import { createMysqlDatabase, createPgDatabase, loadMysqlChinook, loadPgChinook, type MysqlDatabase, type PgDatabase } from './support/fixtures.js';
import { analystResponder } from '@aigis/test-support/scripted-analyst';
import { streamConfirm, streamMessage } from './support/sse-client.js';
import { startTestApp, type TestApp } from './support/test-app.js';

type Dialect = 'postgres' | 'mysql';
const TABLES: Record<Dialect, { track: string; line: string; artist: string }> = {
  postgres: { track: 'track', line: 'invoice_line', artist: 'artist' },
  mysql: { track: 'Track', line: 'InvoiceLine', artist: 'Artist' },
};
const dialectOfWriter = (d: string): Dialect => (d === 'PostgreSQL' ? 'postgres' : 'mysql');

/** The SQL the scripted model writes, per question: a 7.8 M-row cross join, or cheap counts. */
function sqlFor(question: string, writerDialect: string): string {
  const t = TABLES[dialectOfWriter(writerDialect)];
  if (/every pairing/i.test(question)) return `SELECT count(*) AS pairs FROM ${t.track} t CROSS JOIN ${t.line} l`;
  if (/cheaper/i.test(question)) return `SELECT count(*) AS line_count FROM ${t.line}`;
  return `SELECT count(*) AS artists FROM ${t.artist}`;
}

const EXPENSIVE = 'How many track and invoice line pairs are there, every pairing?';
const CHEAP = 'How many artists are there?';

const types = (events: StreamEvent[]) => events.map((e) => e.type);
const proposalOf = (events: StreamEvent[]) => (events.find((e) => e.type === 'confirm_required') as { data: ReviewProposal } | undefined)?.data;

/**
 * Review before run, end to end on real PostgreSQL and MariaDB Chinook with the scripted model: the pause
 * (interrupt) before an expensive query, approval with edited SQL, refusal leading to another proposal, a new
 * message superseding a proposal, the guard on edits, and the decision log.
 */
describe('review before run', () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let api: ApiClient;
  let userId: string;
  let pgDb: PgDatabase;
  let myDb: MysqlDatabase;
  const connectionIds = {} as Record<Dialect, string>;
  const baseResponder = analystResponder({ sqlFor });

  /** After a refusal the scripted model proposes something else (a cheaper question); otherwise the analyst. */
  function responder(request: FakeRequest) {
    const last = request.lastMessage;
    if (request.tools.length && last?.role === 'tool' && last.content.startsWith('The user chose not to run')) {
      return reply.toolCalls({ name: 'ask_database', args: { question: 'A cheaper question: how many invoice lines are there?' } });
    }
    return baseResponder(request);
  }

  beforeAll(async () => {
    fake = await startFakeOpenAI({ models: ['qwen/qwen3-8b'], responder });
    [pgDb, myDb] = await Promise.all([createPgDatabase('review'), createMysqlDatabase('review')]);
    await Promise.all([loadPgChinook(pgDb), loadMysqlChinook(myDb)]);
    app = await startTestApp({ LM_STUDIO_ENDPOINT: fake.url, SSE_PING_MS: '1000' });
    await app.app.get(ModelRegistry).refresh();
    api = new ApiClient(app.url);
    userId = (await api.register()).id;
    const pgUrl = new URL(TEST_PG_URL);
    pgUrl.pathname = `/${pgDb.name}`;
    connectionIds.postgres = (await api.post('/api/connections', { name: 'Chinook PG', url: pgUrl.toString() })).body.id;
    const myUrl = new URL(TEST_MYSQL_URL);
    myUrl.pathname = `/${myDb.name}`;
    connectionIds.mysql = (await api.post('/api/connections', { name: 'Chinook MariaDB', url: myUrl.toString() })).body.id;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await Promise.all([fake?.close(), pgDb?.drop(), myDb?.drop()]);
  });

  async function newThread(dialect: Dialect, review?: string): Promise<string> {
    const created = await api.post('/api/chat', { model: 'qwen', connection_id: connectionIds[dialect], ...(review ? { review } : {}) });
    expect(created.status).toBe(201);
    return created.body.thread_id;
  }
  const send = (threadId: string, content: string) => streamMessage(app.url, api.token!, threadId, content);
  const confirm = (threadId: string, body: Parameters<typeof streamConfirm>[3]) => streamConfirm(app.url, api.token!, threadId, body);
  const audit = () => app.app.get(QueryAuditRepository).listByUser(userId, 1000);
  const decisions = (threadId: string) => app.app.get(ReviewDecisionsRepository).listByThread(userId, threadId);

  describe.each(['postgres', 'mysql'] as const)('%s', (dialect) => {
    const t = TABLES[dialect];

    it('runs a cheap query at once and pauses an expensive one, with the estimate, before anything runs', async () => {
      const cheap = await send(await newThread(dialect), CHEAP);
      expect(types(cheap.events)).not.toContain('confirm_required');
      expect(cheap.events.find((e) => e.type === 'tool_result')!.data).toMatchObject({ content: { type: 'sql_result', rows: [{ artists: 275 }] } });

      const threadId = await newThread(dialect);
      const paused = await send(threadId, EXPENSIVE);
      expect(types(paused.events)).toEqual(['tool_call', 'confirm_required', 'end']);
      const proposal = proposalOf(paused.events)!;
      expect(proposal).toMatchObject({ sql: sqlFor(EXPENSIVE, dialect === 'postgres' ? 'PostgreSQL' : 'MySQL'), dialect, mode: 'expensive', direct: false });
      expect(proposal.tool_call_id).toBe((paused.events[0] as { data: { id: string } }).data.id);
      expect(proposal.estimate!.rows).toBeGreaterThan(1_000_000);
      expect(proposal.reason).toMatch(/^expensive: .*rows to process/);
      // Nothing ran: no execution of the proposed SQL in the audit log.
      expect((await audit()).filter((a) => a.sql === proposal.sql)).toEqual([]);
      // The pending proposal is part of the thread and its state.
      expect((await api.get(`/api/chat/${threadId}`)).body.pending_review).toEqual(proposal);
      expect((await api.get(`/api/chat/${threadId}/state`)).body.pending_review).toEqual(proposal);
    });

    it('approval runs the exact edited SQL, records the decision, and the turn goes on to the answer', async () => {
      const threadId = await newThread(dialect);
      const proposal = proposalOf((await send(threadId, EXPENSIVE)).events)!;
      const edited = `SELECT count(*) AS pairs FROM ${t.track} t CROSS JOIN ${t.line} l WHERE t.${dialect === 'postgres' ? 'track_id' : 'TrackId'} < 3`;
      const resumed = await confirm(threadId, { decision: 'approve', sql: edited, proposal_id: proposal.id });
      expect(resumed.status).toBe(200);
      const kinds = types(resumed.events);
      expect(kinds[0]).toBe('tool_result');
      expect(kinds.at(-1)).toBe('end');
      expect(resumed.events[0]!.data).toMatchObject({ id: proposal.tool_call_id, content: { type: 'sql_result', rows: [{ pairs: 2 * 2240 }] } });
      expect((resumed.events.at(-1) as { data: { full_response: string } }).data.full_response).toBe(`The top result is ${2 * 2240} with undefined.`);

      const runs = (await audit()).filter((a) => a.review_id === proposal.id);
      expect(runs).toMatchObject([{ sql: edited, status: 'ok', row_count: 1, thread_id: threadId }]);
      expect(await decisions(threadId)).toMatchObject([{ id: proposal.id, decision: 'approved', proposed_sql: proposal.sql, approved_sql: edited, user_id: userId }]);
      expect((await api.get(`/api/chat/${threadId}`)).body.pending_review).toBeNull();
      // Decided once: nothing is pending any more.
      const again = await confirm(threadId, { decision: 'approve' });
      expect(again.status).toBe(409);
      expect(again.json.error.code).toBe('NO_PENDING_REVIEW');
    });

    it('refuses an edited write statement with the guard, audits it, and keeps the proposal pending', async () => {
      const threadId = await newThread(dialect);
      const proposal = proposalOf((await send(threadId, EXPENSIVE)).events)!;
      const hostile = `DELETE FROM ${t.artist}`;
      const refused = await confirm(threadId, { decision: 'approve', sql: hostile });
      expect(refused.status).toBe(400);
      expect(refused.json.error.code).toBe('SQL_REJECTED');
      expect((await audit()).filter((a) => a.sql === hostile)).toMatchObject([{ status: 'rejected', review_id: proposal.id }]);
      expect((await api.get(`/api/chat/${threadId}`)).body.pending_review.id).toBe(proposal.id);
      expect(await decisions(threadId)).toEqual([]);
      const count = dialect === 'postgres' ? await pgDb.query('SELECT count(*)::int AS n FROM artist') : await myDb.query('SELECT count(*) AS n FROM Artist');
      expect(Number((count[0] as { n: number }).n)).toBe(275);
      // A stacked statement hidden after the approved one is refused the same way.
      const stacked = await confirm(threadId, { decision: 'approve', sql: `SELECT 1; DROP TABLE ${t.artist}` });
      expect(stacked.json.error.code).toBe('SQL_REJECTED');
    });

    it('refusal with a reason goes back to the model, which proposes a different query', async () => {
      const threadId = await newThread(dialect, 'always');
      const first = proposalOf((await send(threadId, EXPENSIVE)).events)!;
      expect(first.mode).toBe('always');
      const before = fake.completions().length;
      const resumed = await confirm(threadId, { decision: 'deny', reason: 'too slow at this hour', proposal_id: first.id });
      expect(resumed.status).toBe(200);
      expect(types(resumed.events)).toEqual(['tool_result', 'tool_call', 'confirm_required', 'end']);
      expect(resumed.events[0]!.data).toMatchObject({ id: first.tool_call_id, content: { type: 'error', code: 'QUERY_DENIED', sql: first.sql } });
      const second = proposalOf(resumed.events)!;
      expect(second.id).not.toBe(first.id);
      expect(second.sql).toBe(`SELECT count(*) AS line_count FROM ${t.line}`);
      // The model read the refusal and its reason.
      const seen = JSON.stringify(fake.completions().slice(before)[0]!.messages);
      expect(seen).toContain('too slow at this hour');
      expect((await audit()).filter((a) => a.sql === first.sql)).toEqual([]);
      expect(await decisions(threadId)).toMatchObject([{ id: first.id, decision: 'denied', reason: 'too slow at this hour', approved_sql: null }]);
    });

    it('a new message while a proposal waits refuses it first, and the new question is answered', async () => {
      const threadId = await newThread(dialect);
      const proposal = proposalOf((await send(threadId, EXPENSIVE)).events)!;
      const next = await send(threadId, CHEAP);
      expect(types(next.events)).not.toContain('confirm_required');
      expect(next.events.find((e) => e.type === 'tool_result')!.data).toMatchObject({ content: { type: 'sql_result', rows: [{ artists: 275 }] } });
      expect(await decisions(threadId)).toMatchObject([{ id: proposal.id, decision: 'superseded' }]);
      const thread = (await api.get(`/api/chat/${threadId}`)).body;
      expect(thread.pending_review).toBeNull();
      expect(thread.messages.find((m: { tool_call_id?: string }) => m.tool_call_id === proposal.tool_call_id).result).toMatchObject({ code: 'QUERY_DENIED' });
      expect((await audit()).filter((a) => a.sql === proposal.sql)).toEqual([]);
    });

    it('`SQL:` messages follow the same rule: an always thread asks first, and approval runs them without a model', async () => {
      const threadId = await newThread(dialect, 'always');
      const sql = `SELECT count(*) AS artists FROM ${t.artist}`;
      const before = fake.completions().length;
      const paused = await send(threadId, `SQL: ${sql}`);
      expect(types(paused.events)).toEqual(['tool_call', 'confirm_required', 'end']);
      const proposal = proposalOf(paused.events)!;
      expect(proposal).toMatchObject({ sql, direct: true, mode: 'always' });
      const resumed = await confirm(threadId, { decision: 'approve' });
      expect(types(resumed.events)).toEqual(['tool_result', 'end']);
      expect(resumed.events[0]!.data).toMatchObject({ content: { type: 'sql_result', rows: [{ artists: 275 }] } });
      expect(fake.completions().length).toBe(before);
      expect((await audit()).filter((a) => a.review_id === proposal.id)).toMatchObject([{ sql, status: 'ok', model_name: null }]);
      // A user-written EXPLAIN is refused by the guard before any estimate (only our code puts EXPLAIN in front).
      const explained = await send(threadId, `SQL: EXPLAIN ANALYZE SELECT count(*) FROM ${t.artist}`);
      expect(types(explained.events)).toEqual(['tool_call', 'tool_result', 'end']);
      expect(explained.events[1]!.data).toMatchObject({ content: { type: 'error', code: 'SQL_REJECTED' } });
      // An expensive SQL: message in the default mode asks too; a cheap one runs at once.
      const defaultThread = await newThread(dialect);
      expect(types((await send(defaultThread, `SQL: ${sql}`)).events)).toEqual(['tool_call', 'tool_result', 'end']);
      expect(types((await send(defaultThread, `SQL: ${sqlFor(EXPENSIVE, dialect === 'postgres' ? 'PostgreSQL' : 'MySQL')}`)).events)).toEqual(['tool_call', 'confirm_required', 'end']);
    });
  });

  it('follows the settings: a connection set to never runs the expensive query; a thread override to always asks', async () => {
    const patched = await api.patch(`/api/connections/${connectionIds.postgres}`, { review: 'never' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ review: 'never', review_thresholds: { cost: 100_000, rows: 1_000_000, scan_rows: 1_000_000 } });
    try {
      const threadId = await newThread('postgres');
      const ran = await send(threadId, EXPENSIVE);
      expect(types(ran.events)).not.toContain('confirm_required');
      expect(ran.events.find((e) => e.type === 'tool_result')!.data).toMatchObject({ content: { type: 'sql_result', rows: [{ pairs: 3503 * 2240 }] } });
      const override = await api.patch(`/api/chat/${threadId}`, { review: 'always' });
      expect(override.body.review).toBe('always');
      expect(types((await send(threadId, CHEAP)).events)).toContain('confirm_required');
    } finally {
      await api.patch(`/api/connections/${connectionIds.postgres}`, { review: 'expensive' });
    }
    // Thresholds: a low row threshold makes the cheap count "expensive" (Artist is read whole: 275 rows).
    const low = await api.patch(`/api/connections/${connectionIds.mysql}`, { review_thresholds: { scan_rows: 100 } });
    expect(low.body.review_thresholds.scan_rows).toBe(100);
    try {
      const paused = await send(await newThread('mysql'), CHEAP);
      expect(proposalOf(paused.events)!.reason).toMatch(/reads all ~275 rows of Artist/);
    } finally {
      await api.patch(`/api/connections/${connectionIds.mysql}`, { review_thresholds: { scan_rows: null } });
    }
    const bad = await api.patch(`/api/connections/${connectionIds.mysql}`, { review: 'sometimes' });
    expect(bad.status).toBe(400);
    expect((await api.patch(`/api/chat/${await newThread('mysql')}`, { review: 'maybe' })).status).toBe(400);
  });

  it('keeps the proposal when the model is switched while it waits, and runs it when approved then', async () => {
    const threadId = await newThread('postgres');
    const proposal = proposalOf((await send(threadId, EXPENSIVE)).events)!;
    expect((await api.post(`/api/chat/${threadId}/model`, { name: 'qwen' })).status).toBe(200);
    expect((await api.get(`/api/chat/${threadId}`)).body.pending_review?.id).toBe(proposal.id);
    const edited = 'SELECT count(*) AS pairs FROM track t CROSS JOIN invoice_line l WHERE t.track_id = 1';
    const resumed = await confirm(threadId, { decision: 'approve', sql: edited });
    expect(resumed.events[0]!.data).toMatchObject({ content: { type: 'sql_result', rows: [{ pairs: 2240 }] } });
  });

  it('an approval stopped while its query runs leaves no proposal behind to pause the next turn', async () => {
    const threadId = await newThread('postgres');
    const proposal = proposalOf((await send(threadId, EXPENSIVE)).events)!;
    // The full cross join takes a moment; the client goes away while it runs.
    const stop = new AbortController();
    const started = streamConfirm(app.url, api.token!, threadId, { decision: 'approve' }, { signal: stop.signal });
    await new Promise((resolve) => setTimeout(resolve, 400));
    stop.abort();
    await started.catch(() => undefined);
    await expect.poll(async () => (await audit()).filter((a) => a.review_id === proposal.id).length, { timeout: 10_000 }).toBe(1);
    const next = await send(threadId, CHEAP);
    expect(types(next.events)).not.toContain('confirm_required');
    expect(next.events.find((e) => e.type === 'tool_result')!.data).toMatchObject({ content: { type: 'sql_result', rows: [{ artists: 275 }] } });
  });

  it('decides a proposal once: of two concurrent approvals one runs, the other answers 409', async () => {
    const threadId = await newThread('postgres');
    const proposal = proposalOf((await send(threadId, EXPENSIVE)).events)!;
    const edited = 'SELECT count(*) AS pairs FROM track t CROSS JOIN invoice_line l WHERE t.track_id < 2';
    const [a, b] = await Promise.all([confirm(threadId, { decision: 'approve', sql: edited }), confirm(threadId, { decision: 'approve', sql: edited })]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    expect((await audit()).filter((x) => x.review_id === proposal.id && x.status === 'ok')).toHaveLength(1);
  });

  it('answers bad decisions with clear errors, and another user cannot decide', async () => {
    const threadId = await newThread('postgres');
    const none = await confirm(threadId, { decision: 'approve' });
    expect(none.status).toBe(409);
    expect(none.json.error).toMatchObject({ code: 'NO_PENDING_REVIEW' });
    const proposal = proposalOf((await send(threadId, EXPENSIVE)).events)!;
    const stale = await confirm(threadId, { decision: 'approve', proposal_id: 'not-this-one' });
    expect(stale.json.error.code).toBe('REVIEW_STALE');
    const invalid = await api.post(`/api/chat/${threadId}/confirm`, { decision: 'maybe' });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.code).toBe('VALIDATION_FAILED');
    const denyWithSql = await api.post(`/api/chat/${threadId}/confirm`, { decision: 'deny', sql: 'SELECT 1' });
    expect(denyWithSql.status).toBe(400);
    const other = new ApiClient(app.url);
    await other.register();
    const foreign = await other.post(`/api/chat/${threadId}/confirm`, { decision: 'approve' });
    expect(foreign.status).toBe(404);
    expect((await api.get(`/api/chat/${threadId}`)).body.pending_review.id).toBe(proposal.id);
  });
});
