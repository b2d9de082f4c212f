import { KNOWLEDGE_FIELD_LIMITS, learningPatchSchema, learningSchema } from '@aigis/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeService } from '../../src/knowledge/knowledge.service.js';
import { LearningsService } from '../../src/knowledge/learnings.service.js';
import { FakeClock } from '../fakes/clock.js';
import { testConfig } from '../fakes/config.js';
import { FakeConnections } from '../fakes/connections.js';
import { asReal } from '../fakes/fake.js';
import { FakeKnowledgeStore } from '../fakes/knowledge-store.js';
import { FakeQueryAudit, FakeReadOnlyExecutor } from '../fakes/query.js';
import { AppError } from '../../src/common/app-error.js';

const WORKING = 'SELECT sum(amount_cents) / 100.0 AS revenue FROM orders';
/** A learning whose lesson is `lesson` made long enough for the contract (20 characters at least). */
const learning = (lesson: string, working_sql = WORKING) => learningSchema.parse({ category: 'data_quality', tables: ['orders'], working_sql, lesson: `${lesson} (amounts are cents)` });

describe('LearningsService (in memory)', () => {
  let store: FakeKnowledgeStore;
  let audit: FakeQueryAudit;
  let clock: FakeClock;
  let executor: FakeReadOnlyExecutor;
  let service: LearningsService;

  beforeEach(() => {
    store = new FakeKnowledgeStore();
    audit = new FakeQueryAudit();
    clock = new FakeClock();
    const connections = new FakeConnections();
    connections.repository.add({ id: 'c-alice', user_id: 'alice' });
    connections.repository.add({ id: 'c-bob', user_id: 'bob' });
    const config = testConfig({ KNOWLEDGE_MAX_LEARNINGS: 2 });
    const knowledge = new KnowledgeService(config, asReal(store), asReal(connections), clock);
    executor = new FakeReadOnlyExecutor();
    service = new LearningsService(config, asReal(store), knowledge, asReal(audit), clock, asReal(executor));
    audit.ran('alice', 'c-alice', 't1', WORKING);
  });

  it('refuses working SQL that did not run in this thread on this connection (400), whatever the model claims', async () => {
    await expect(service.record('alice', 'c-alice', 't1', learning('Amounts are cents', 'SELECT 1'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', message: expect.stringContaining('working_sql') });
    // It ran, but in another thread of the same user.
    await expect(service.record('alice', 'c-alice', 't2', learning('Amounts are cents'))).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(store.learnings.rows).toHaveLength(0);
  });

  it('takes the working SQL as it ran, ignoring case, spacing and a final semicolon', async () => {
    const { learning: saved } = await service.record('alice', 'c-alice', 't1', learning('Amounts are cents', `select SUM(amount_cents) / 100.0   as revenue\nFROM orders;`));
    expect(saved).toMatchObject({ lesson: 'Amounts are cents (amounts are cents)', confidence: 1, thread_id: 't1' });
  });

  it('checks ownership before reading the audit log (404 for another user\'s connection)', async () => {
    audit.ran('bob', 'c-bob', 't1', WORKING);
    await expect(service.record('alice', 'c-bob', 't1', learning('x'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.list('alice', 'c-bob')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('raises the confidence of a repeat instead of adding a row, and says it was a repeat', async () => {
    const first = await service.record('alice', 'c-alice', 't1', learning('Amounts are cents'));
    expect(first.repeated).toBe(false);
    clock.advance(60_000);
    const again = await service.record('alice', 'c-alice', 't1', learning('  amounts ARE cents '));
    expect(again).toMatchObject({ repeated: true, learning: { id: first.learning.id, confidence: 2, updated_at: clock.iso() } });
    expect(await service.list('alice', 'c-alice')).toHaveLength(1);
  });

  it('stops at KNOWLEDGE_MAX_LEARNINGS for new content (409) but still counts a repeat when full', async () => {
    await service.record('alice', 'c-alice', 't1', learning('one'));
    await service.record('alice', 'c-alice', 't1', learning('two'));
    await expect(service.record('alice', 'c-alice', 't1', learning('three'))).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('KNOWLEDGE_MAX_LEARNINGS') });
    await expect(service.record('alice', 'c-alice', 't1', learning('two'))).resolves.toMatchObject({ repeated: true, learning: { confidence: 2 } });
  });

  it('passes the confidence cap from the contract to the store', async () => {
    let cap: number | undefined;
    const record = store.learnings.record.bind(store.learnings);
    store.learnings.record = (row, max) => ((cap = max), record(row, max));
    await service.record('alice', 'c-alice', 't1', learning('one'));
    expect(cap).toBe(KNOWLEDGE_FIELD_LIMITS.confidence);
  });

  it('edits a learning, refusing an edit that makes it say what another one says (409), and 404s an unknown id', async () => {
    const { learning: one } = await service.record('alice', 'c-alice', 't1', learning('one'));
    const { learning: two } = await service.record('alice', 'c-alice', 't1', learning('two'));
    await expect(service.update('alice', 'c-alice', two.id, learningPatchSchema.parse({ lesson: 'one (amounts are cents)' }))).rejects.toMatchObject({ code: 'CONFLICT' });
    const edited = await service.update('alice', 'c-alice', two.id, learningPatchSchema.parse({ lesson: 'two, better (amounts are cents)', confidence: 5 }));
    expect(edited).toMatchObject({ id: two.id, lesson: 'two, better (amounts are cents)', confidence: 5, working_sql: WORKING });
    // Editing a learning into the content it already has is no conflict with itself.
    await expect(service.update('alice', 'c-alice', one.id, learningPatchSchema.parse({ lesson: 'one (amounts are cents)' }))).resolves.toMatchObject({ id: one.id });
    await expect(service.update('alice', 'c-alice', 'nope', learningPatchSchema.parse({ lesson: 'x (amounts are cents)' }))).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Learning not found' });
    await expect(service.delete('alice', 'c-alice', 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('puts an edited working SQL through the guard: a refusal is a 400 naming the field, and nothing changes', async () => {
    const { learning: one } = await service.record('alice', 'c-alice', 't1', learning('one'));
    executor.refuse = (sql) => (/drop/i.test(sql) ? new AppError('SQL_REJECTED', 'Only read-only queries are allowed.') : null);
    await expect(service.update('alice', 'c-alice', one.id, learningPatchSchema.parse({ working_sql: 'DROP TABLE orders' }))).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      message: 'working_sql: Only read-only queries are allowed.',
    });
    expect(executor.checked.at(-1)).toMatchObject({ userId: 'alice', connectionId: 'c-alice', sql: 'DROP TABLE orders' });
    expect(store.learnings.rows[0]).toMatchObject({ id: one.id, working_sql: WORKING });
    // Another user's connection is a 404 before the guard is asked anything.
    const asked = executor.checked.length;
    await expect(service.update('bob', 'c-alice', one.id, learningPatchSchema.parse({ working_sql: 'SELECT 1' }))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(executor.checked).toHaveLength(asked);
    // Other errors of the check (the database is unreachable) are not turned into a validation error.
    executor.refuse = () => new AppError('CONNECTION_FAILED', 'unreachable');
    await expect(service.update('alice', 'c-alice', one.id, learningPatchSchema.parse({ working_sql: 'SELECT 2' }))).rejects.toMatchObject({ code: 'CONNECTION_FAILED' });
  });
});
