import { beforeEach, describe, expect, it } from 'vitest';
import { ReviewService, type ReviewRequest } from '../../src/agent/review/review.service.js';
import { AppError } from '../../src/common/app-error.js';
import { DEFAULT_REVIEW_THRESHOLDS } from '../../src/connections/review-defaults.js';
import { FakeClock } from '../fakes/clock.js';
import { FakeConnectionsRepository } from '../fakes/connections.js';
import { asReal } from '../fakes/fake.js';
import { FakeReadOnlyExecutor, FakeReviewDecisions } from '../fakes/query.js';
import { FakeThreadsRepository } from '../fakes/threads.js';

const SQL = 'SELECT * FROM orders';

describe('ReviewService (in memory): review before run', () => {
  let executor: FakeReadOnlyExecutor;
  let connections: FakeConnectionsRepository;
  let threads: FakeThreadsRepository;
  let decisions: FakeReviewDecisions;
  let service: ReviewService;
  const request = (overrides: Partial<ReviewRequest> = {}): ReviewRequest => ({ userId: 'alice', connectionId: 'c1', threadId: 't1', sql: SQL, toolCallId: 'call-1', toolName: 'ask_database', direct: false, ...overrides });

  beforeEach(() => {
    executor = new FakeReadOnlyExecutor();
    connections = new FakeConnectionsRepository();
    threads = new FakeThreadsRepository();
    decisions = new FakeReviewDecisions();
    connections.add({ id: 'c1', user_id: 'alice', review: 'expensive', review_max_cost: 1000, review_max_rows: 5000, review_scan_rows: 100 });
    void threads.insert({ id: 't1', user_id: 'alice', title: 'T', model_name: null, connection_id: 'c1', review: null, knowledge_examples: 1, created_at: '', updated_at: '' });
    service = new ReviewService(asReal(executor), asReal(connections), asReal(threads), asReal(decisions), new FakeClock());
  });

  it('answers 404 for another user\'s connection before estimating anything', async () => {
    await expect(service.assess(request({ userId: 'bob' }))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(executor.explained).toEqual([]);
  });

  it('lets a cheap query run, and stops one over any of the connection\'s thresholds, naming each crossed', async () => {
    executor.estimate = { cost: 999, rows: 4999, scans: [{ table: 'orders', rows: 100 }] };
    expect(await service.assess(request())).toBeNull();
    executor.estimate = { cost: 1001, rows: 10, scans: [] };
    expect((await service.assess(request()))?.proposal.reason).toMatch(/^expensive: estimated cost .*limit 1/);
    executor.estimate = { cost: 1, rows: 1, scans: [{ table: 'orders', rows: 101 }] };
    const pending = await service.assess(request({ direct: true }));
    expect(pending).toMatchObject({ user_id: 'alice', connection_id: 'c1', tool_name: 'ask_database', proposal: { sql: SQL, tool_call_id: 'call-1', mode: 'expensive', direct: true, dialect: 'postgres' } });
    expect(pending?.proposal.reason).toContain('orders');
  });

  it('uses the default thresholds where the connection has none', async () => {
    connections.rows[0]!.review_max_cost = null;
    executor.estimate = { cost: DEFAULT_REVIEW_THRESHOLDS.cost, rows: 1, scans: [] };
    expect(await service.assess(request())).toBeNull();
    executor.estimate = { cost: DEFAULT_REVIEW_THRESHOLDS.cost + 1, rows: 1, scans: [] };
    expect(await service.assess(request())).not.toBeNull();
  });

  it('follows the thread\'s own mode over the connection\'s: never skips the estimate, always asks without one', async () => {
    threads.rows[0]!.review = 'never';
    executor.estimate = { cost: 1e9, rows: 1e9, scans: [] };
    expect(await service.assess(request())).toBeNull();
    expect(executor.explained).toHaveLength(0);
    threads.rows[0]!.review = 'always';
    executor.estimate = { cost: 0, rows: 0, scans: [] };
    expect(await service.assess(request())).toMatchObject({ proposal: { mode: 'always' } });
  });

  it('sends errors of the query itself back to the caller, but asks the user when only the estimate failed', async () => {
    executor.estimate = new AppError('SQL_REJECTED', 'not a read');
    await expect(service.assess(request())).rejects.toMatchObject({ code: 'SQL_REJECTED' });
    executor.estimate = new AppError('QUERY_TIMEOUT', 'planning took too long');
    expect((await service.assess(request()))?.proposal).toMatchObject({ estimate: null, reason: expect.stringContaining('planning took too long') });
    executor.estimate = new Error('driver bug');
    await expect(service.assess(request())).rejects.toThrow('driver bug');
  });

  it('bounds the estimate it shows: at most 20 scans, largest first', async () => {
    executor.estimate = { cost: 1, rows: 1, scans: Array.from({ length: 30 }, (_, i) => ({ table: `t${i}`, rows: 1000 + i })) };
    const scans = (await service.assess(request()))!.proposal.estimate!.scans;
    expect(scans).toHaveLength(20);
    expect(scans[0]).toEqual({ table: 't29', rows: 1029 });
  });

  it('records a decision once: the second answers REVIEW_ALREADY_DECIDED', async () => {
    threads.rows[0]!.review = 'always';
    const pending = (await service.assess(request()))!;
    expect(await service.decide('t1', pending, { decision: 'approved' })).toBe(SQL);
    await expect(service.decide('t1', pending, { decision: 'denied' })).rejects.toMatchObject({ code: 'REVIEW_ALREADY_DECIDED' });
    expect(decisions.rows.get(pending.proposal.id)).toMatchObject({ decision: 'approved', approved_sql: SQL, proposed_sql: SQL });
  });

  it('guards an edited SQL before recording approval; a refusal leaves the proposal undecided', async () => {
    threads.rows[0]!.review = 'always';
    const pending = (await service.assess(request()))!;
    executor.refuse = (sql) => (sql.includes('DELETE') ? new AppError('SQL_REJECTED', 'writes are refused') : null);
    await expect(service.decide('t1', pending, { decision: 'approved', sql: 'DELETE FROM orders' })).rejects.toMatchObject({ code: 'SQL_REJECTED' });
    expect(decisions.rows.size).toBe(0);
    expect(await service.decide('t1', pending, { decision: 'approved', sql: 'SELECT id FROM orders' })).toBe('SELECT id FROM orders');
    expect(executor.checked.at(-1)).toMatchObject({ reviewId: pending.proposal.id, sql: 'SELECT id FROM orders' });
  });

  it('does not run the guard for a refusal, and returns no SQL', async () => {
    threads.rows[0]!.review = 'always';
    const pending = (await service.assess(request()))!;
    expect(await service.decide('t1', pending, { decision: 'denied', reason: 'too slow' })).toBeNull();
    expect(executor.checked).toEqual([]);
    expect(decisions.rows.get(pending.proposal.id)).toMatchObject({ decision: 'denied', reason: 'too slow', approved_sql: null });
  });
});
