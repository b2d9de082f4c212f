import { glossaryEntrySchema, tableNoteSchema } from '@aigis/contracts';
import { beforeEach, describe, expect, it } from 'vitest';
import { KnowledgeService } from '../../src/knowledge/knowledge.service.js';
import { FakeClock } from '../fakes/clock.js';
import { testConfig } from '../fakes/config.js';
import { FakeConnections } from '../fakes/connections.js';
import { asReal } from '../fakes/fake.js';
import { FakeKnowledgeStore } from '../fakes/knowledge-store.js';

const term = (t: string, definition = 'Monthly recurring revenue') => glossaryEntrySchema.parse({ term: t, definition });
const note = (table: string, description = 'Orders placed') => tableNoteSchema.parse({ table, description });

describe('KnowledgeService (in memory)', () => {
  let store: FakeKnowledgeStore;
  let clock: FakeClock;
  let service: KnowledgeService;

  beforeEach(() => {
    store = new FakeKnowledgeStore();
    clock = new FakeClock();
    const connections = new FakeConnections();
    connections.repository.add({ id: 'c-alice', user_id: 'alice' });
    connections.repository.add({ id: 'c-bob', user_id: 'bob' });
    const config = testConfig({ KNOWLEDGE_MAX_GLOSSARY: 2, KNOWLEDGE_MAX_TABLE_NOTES: 1 });
    service = new KnowledgeService(config, asReal(store), asReal(connections), clock);
  });

  it('answers 404 NOT_FOUND for another user\'s connection on reads and writes, and writes nothing', async () => {
    await expect(service.overview('alice', 'c-bob')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.setInstructions('alice', 'c-bob', 'steal')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.addTerm('alice', 'c-bob', term('MRR'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.putTable('alice', 'c-bob', note('orders'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(store.instructions.rows.size).toBe(0);
    expect(store.glossary.rows).toHaveLength(0);
    expect(store.tables.rows).toHaveLength(0);
  });

  it('answers 404 for a term or table note of the connection that does not exist, even when another connection has it', async () => {
    const bobs = await service.addTerm('bob', 'c-bob', term('MRR'));
    await expect(service.updateTerm('alice', 'c-alice', bobs.id, term('MRR'))).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Glossary term not found' });
    await expect(service.deleteTerm('alice', 'c-alice', bobs.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.deleteTable('alice', 'c-alice', 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Table note not found' });
    expect(await service.glossary('bob', 'c-bob')).toHaveLength(1);
  });

  it('refuses a term already defined however it is spelled (409), and a rename onto another term, but not onto itself', async () => {
    const mrr = await service.addTerm('alice', 'c-alice', term('MRR'));
    await expect(service.addTerm('alice', 'c-alice', term('  mrr '))).rejects.toMatchObject({ code: 'CONFLICT' });
    const arr = await service.addTerm('alice', 'c-alice', term('ARR', 'Annual'));
    await expect(service.updateTerm('alice', 'c-alice', arr.id, term('Mrr'))).rejects.toMatchObject({ code: 'CONFLICT' });
    const renamed = await service.updateTerm('alice', 'c-alice', mrr.id, term('mrr', 'Monthly revenue'));
    expect(renamed).toMatchObject({ id: mrr.id, term: 'mrr', definition: 'Monthly revenue' });
    // The same term on another connection is another term.
    await expect(service.addTerm('bob', 'c-bob', term('MRR'))).resolves.toMatchObject({ term: 'MRR' });
  });

  it('stops at KNOWLEDGE_MAX_GLOSSARY with 409 naming the setting, and counts per connection', async () => {
    await service.addTerm('alice', 'c-alice', term('A'));
    await service.addTerm('alice', 'c-alice', term('B'));
    await expect(service.addTerm('alice', 'c-alice', term('C'))).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('KNOWLEDGE_MAX_GLOSSARY') });
    await expect(service.addTerm('bob', 'c-bob', term('C'))).resolves.toMatchObject({ term: 'C' });
  });

  it('answers the concurrent duplicate the unique key let through as 409, not a 500', async () => {
    const racing = store.glossary;
    const insert = racing.insert.bind(racing);
    // The other request inserts between this one's check and its insert.
    racing.insert = async (row) => {
      await insert({ ...row, id: 'other-request' });
      return insert(row);
    };
    await expect(service.addTerm('alice', 'c-alice', term('MRR'))).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('replaces a table note in place (same id) and lets a replacement through at the limit, but not a new table', async () => {
    const first = await service.putTable('alice', 'c-alice', note('orders'));
    clock.advance(1000);
    const again = await service.putTable('alice', 'c-alice', note('orders', 'Orders, one row per checkout'));
    expect(again).toMatchObject({ id: first.id, description: 'Orders, one row per checkout' });
    expect(again.updated_at).not.toBe(first.updated_at);
    await expect(service.putTable('alice', 'c-alice', note('customers'))).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('KNOWLEDGE_MAX_TABLE_NOTES') });
    expect(await service.tables('alice', 'c-alice')).toHaveLength(1);
  });

  it('keeps instructions with the clock\'s time, and an empty text with no time before any', async () => {
    expect(await service.instructions('alice', 'c-alice')).toEqual({ text: '', updated_at: null });
    await service.setInstructions('alice', 'c-alice', 'Amounts are in cents.');
    expect(await service.instructions('alice', 'c-alice')).toEqual({ text: 'Amounts are in cents.', updated_at: clock.iso() });
    expect((await service.overview('alice', 'c-alice')).instructions.text).toBe('Amounts are in cents.');
  });
});
