import { beforeEach, describe, expect, it } from 'vitest';
import { ThreadsService } from '../../src/chat/threads.service.js';
import { DEFAULT_TITLE } from '../../src/chat/default-title.js';
import { FakeAgentFacade } from '../fakes/agent.js';
import { FakeClock } from '../fakes/clock.js';
import { FakeConnections } from '../fakes/connections.js';
import { asReal } from '../fakes/fake.js';
import { FakeModelRegistry, modelInfo } from '../fakes/models.js';
import { FakeSchemaService } from '../fakes/schema.js';
import { FakeThreadsRepository } from '../fakes/threads.js';

describe('ThreadsService (in memory)', () => {
  let threads: FakeThreadsRepository;
  let agent: FakeAgentFacade;
  let registry: FakeModelRegistry;
  let schemas: FakeSchemaService;
  let clock: FakeClock;
  let service: ThreadsService;

  beforeEach(() => {
    threads = new FakeThreadsRepository();
    agent = new FakeAgentFacade();
    registry = new FakeModelRegistry([modelInfo('fast', true, { aliases: ['quick'] }), modelInfo('smart', true), modelInfo('offline', false)]);
    const connections = new FakeConnections();
    connections.repository.add({ id: 'c-alice', user_id: 'alice' });
    connections.repository.add({ id: 'c-bob', user_id: 'bob' });
    schemas = new FakeSchemaService(connections, [{ schema: 'public', name: 'orders', kind: 'table', comment: null, columns: [], foreign_keys: [], row_estimate: 10, sample_rows: [] }]);
    clock = new FakeClock();
    service = new ThreadsService(asReal(threads), asReal(agent), asReal(registry), asReal(connections), asReal(schemas), clock);
  });

  it('creates a thread with the canonical model name for an alias, and mirrors it into the agent state', async () => {
    const thread = await service.create('alice', { model: 'QUICK' });
    expect(thread).toMatchObject({ title: DEFAULT_TITLE, model: 'fast', connection_id: null, knowledge_examples: true });
    expect(agent.settings.get(thread.thread_id)).toEqual({ model_name: 'fast' });
  });

  it('refuses to create a thread on another user\'s connection, and stores nothing', async () => {
    await expect(service.create('alice', { connection_id: 'c-bob' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(threads.rows).toHaveLength(0);
  });

  it('attaches the connection: the schema goes into the agent state and the last result is cleared', async () => {
    const thread = await service.create('alice', { connection_id: 'c-alice' });
    expect(thread.connection_id).toBe('c-alice');
    expect(agent.settings.get(thread.thread_id)).toMatchObject({ db_schema: '## orders', markdown_mode: 'full', connection: { user_id: 'alice', connection_id: 'c-alice' }, sql_result: null });
    expect((await service.list('alice'))[0]?.connection_id).toBe('c-alice');
  });

  it('answers 404 for another user\'s thread on every operation, and leaves it alone', async () => {
    const bobs = await service.create('bob', { title: 'Bob\'s' });
    for (const call of [
      () => service.detail('alice', bobs.thread_id),
      () => service.update('alice', bobs.thread_id, { title: 'mine now' }),
      () => service.delete('alice', bobs.thread_id),
      () => service.setModel('alice', bobs.thread_id, 'fast'),
      () => service.setConnection('alice', bobs.thread_id, 'c-alice'),
      () => service.state('alice', bobs.thread_id),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Thread not found' });
    }
    expect(threads.rows[0]).toMatchObject({ title: 'Bob\'s', model_name: null, connection_id: null });
    expect(agent.deleted).toEqual([]);
  });

  it('refuses a connection of another user on a thread of one\'s own', async () => {
    const thread = await service.create('alice', {});
    await expect(service.setConnection('alice', thread.thread_id, 'c-bob')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(threads.rows[0]?.connection_id).toBeNull();
    expect(agent.settings.get(thread.thread_id)).toBeUndefined();
  });

  it('switches the model between messages, and reports thread vs default source', async () => {
    const thread = await service.create('alice', {});
    expect(await service.model('alice', thread.thread_id)).toEqual({ thread_id: thread.thread_id, model: 'fast', source: 'default', models: { fast: true, smart: true, offline: false } });
    clock.advance(5000);
    const switched = await service.setModel('alice', thread.thread_id, 'smart');
    expect(switched).toMatchObject({ model: 'smart', source: 'thread' });
    expect(agent.settings.get(thread.thread_id)).toEqual({ model_name: 'smart' });
    expect(threads.rows[0]?.updated_at).toBe(clock.iso());
  });

  it('refuses an unavailable model with MODEL_UNAVAILABLE naming the available ones, and keeps the current one', async () => {
    const thread = await service.create('alice', { model: 'smart' });
    await expect(service.setModel('alice', thread.thread_id, 'offline')).rejects.toMatchObject({
      code: 'MODEL_UNAVAILABLE',
      message: expect.stringContaining('Available: fast, smart.'),
      details: { model: 'offline', available: ['fast', 'smart'] },
    });
    expect(threads.rows[0]?.model_name).toBe('smart');
    expect(agent.settings.get(thread.thread_id)).toEqual({ model_name: 'smart' });
  });

  it('has no model and no source when nothing is available', async () => {
    registry.models.splice(0, 2);
    const thread = await service.create('alice', {});
    expect(await service.model('alice', thread.thread_id)).toMatchObject({ model: null, source: null });
  });

  it('titles an untitled thread from its first question, shortened, and keeps a title the user gave', async () => {
    const untitled = await service.create('alice', {});
    await service.touch(await service.row('alice', untitled.thread_id), `sql:   select *\n from orders ${'where x = 1 '.repeat(10)}`);
    const title = (await service.row('alice', untitled.thread_id)).title;
    expect(title.startsWith('SQL: select * from orders where')).toBe(true);
    expect(title.length).toBeLessThanOrEqual(60);
    expect(title.endsWith('…')).toBe(true);
    const named = await service.create('alice', { title: 'Revenue' });
    await service.touch(await service.row('alice', named.thread_id), 'What was revenue?');
    expect((await service.row('alice', named.thread_id)).title).toBe('Revenue');
  });

  it('patches only the fields given (review null follows the connection; knowledge examples off)', async () => {
    const thread = await service.create('alice', { title: 'T', review: 'always' });
    const updated = await service.update('alice', thread.thread_id, { knowledge_examples: false });
    expect(updated).toMatchObject({ title: 'T', review: 'always', knowledge_examples: false });
    expect(await service.update('alice', thread.thread_id, { review: null })).toMatchObject({ review: null, knowledge_examples: false });
  });
});
