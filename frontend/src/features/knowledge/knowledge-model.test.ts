import { describe, expect, it } from 'vitest';
import {
  confidenceLabel,
  describeImport,
  emptyGlossaryForm,
  exportFileName,
  filterItems,
  glossaryFormFrom,
  hasNotes,
  learningFormFrom,
  LIMITS,
  parseLines,
  parseTableList,
  readImportFile,
  sortLearnings,
  tableNoteFormFrom,
  toGlossaryInput,
  toLearningPatch,
  toTableNoteInput,
  validateExample,
  validateGlossary,
  validateLearning,
  validateTableNote,
} from './knowledge-model';
import { qualifiedName } from '../../ui/format';
import type { GlossaryEntry, KnowledgeImportResult, Learning, TableNote } from '@aigis/contracts';

const entry: GlossaryEntry = {
  id: 'g1',
  term: 'MRR',
  definition: 'Sum of active subscriptions.',
  sql: null,
  unit: 'USD',
  caveats: ['In cents.', 'Excludes annual contracts.'],
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
};

const learning = (over: Partial<Learning>): Learning => ({
  id: 'l',
  category: 'naming',
  lesson: 'Use customer_id, not cust_id.',
  tables: ['orders'],
  failed_sql: 'SELECT cust_id FROM orders',
  working_sql: 'SELECT customer_id FROM orders',
  confidence: 1,
  thread_id: null,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  ...over,
});

describe('glossary form', () => {
  it('asks for a term and a definition, and names the field that is too long', () => {
    expect(validateGlossary(emptyGlossaryForm())).toEqual({ term: 'Name the term.', definition: 'Say what it means here.' });
    expect(validateGlossary({ ...emptyGlossaryForm(), term: '   ', definition: 'x' })).toEqual({ term: 'Name the term.' });
    const long = validateGlossary({ ...emptyGlossaryForm(), term: 'T', definition: 'd', unit: 'u'.repeat(LIMITS.unit + 1) });
    expect(Object.keys(long)).toEqual(['unit']);
    expect(long.unit).toContain(`(this has ${LIMITS.unit + 1})`);
  });

  it('bounds the caveats: lines and their length', () => {
    const many = Array.from({ length: LIMITS.listItems + 1 }, (_, i) => `caveat ${i}`).join('\n');
    expect(validateGlossary({ ...emptyGlossaryForm(), term: 'T', definition: 'd', caveats: many }).caveats).toBe(`At most ${LIMITS.listItems} lines (this has ${LIMITS.listItems + 1}).`);
    expect(validateGlossary({ ...emptyGlossaryForm(), term: 'T', definition: 'd', caveats: `ok\n${'x'.repeat(LIMITS.text + 1)}` }).caveats).toMatch(/Each line at most/);
  });

  it('sends trimmed text, null for the optional fields left empty, and a caveat a line', () => {
    expect(toGlossaryInput({ term: ' MRR ', definition: ' Monthly recurring revenue\n', sql: '  ', unit: '', caveats: ' In cents. \n\n  Not annual.\r\n' })).toEqual({
      term: 'MRR',
      definition: 'Monthly recurring revenue',
      sql: null,
      unit: null,
      caveats: ['In cents.', 'Not annual.'],
    });
  });

  it('round-trips an entry through the form', () => {
    expect(toGlossaryInput(glossaryFormFrom(entry))).toEqual({ term: 'MRR', definition: 'Sum of active subscriptions.', sql: null, unit: 'USD', caveats: entry.caveats });
  });
});

describe('example form', () => {
  it('needs both a question and SQL', () => {
    expect(validateExample({ question: ' ', sql: '' })).toEqual({ question: 'Write the question this SQL answers.', sql: 'Write the SQL that answers it.' });
    expect(validateExample({ question: 'How many?', sql: 'SELECT 1' })).toEqual({});
    expect(Object.keys(validateExample({ question: 'q'.repeat(LIMITS.text + 1), sql: 'SELECT 1' }))).toEqual(['question']);
  });
});

describe('learned corrections', () => {
  it('reads a table list, dropping blanks and repeats', () => {
    expect(parseTableList(' orders, public.customers,, orders ,')).toEqual(['orders', 'public.customers']);
    expect(parseTableList('')).toEqual([]);
    expect(parseLines(' a \n\n b ')).toEqual(['a', 'b']);
  });

  it('edits through the form and sends null for a cleared failed SQL', () => {
    const values = { ...learningFormFrom(learning({})), tables: 'orders, customers', failedSql: ' ' };
    expect(validateLearning(values)).toEqual({});
    expect(toLearningPatch(values)).toEqual({
      category: 'naming',
      lesson: 'Use customer_id, not cust_id.',
      tables: ['orders', 'customers'],
      failed_sql: null,
      working_sql: 'SELECT customer_id FROM orders',
    });
    expect(validateLearning({ ...values, lesson: '', workingSql: ' ' })).toEqual({
      lesson: 'Say what was learned.',
      workingSql: 'The SQL that worked is what makes this a correction.',
    });
    expect(validateLearning({ ...values, tables: 'x'.repeat(LIMITS.name + 1) }).tables).toMatch(/at most 256 characters/);
  });

  it('says how often a correction was learned', () => {
    expect(confidenceLabel(15)).toBe('recorded 15 times');
    expect(confidenceLabel(1)).toBe('recorded once');
    expect(confidenceLabel(Number.NaN)).toBe('recorded 0 times');
  });

  it('lists the most confident first, then the most recently learned, without reordering the given list', () => {
    const list = [
      learning({ id: 'low', confidence: 1 }),
      learning({ id: 'old', confidence: 4, updated_at: '2026-11-01T00:00:00Z' }),
      learning({ id: 'new', confidence: 4, updated_at: '2026-11-20T00:00:00Z' }),
    ];
    expect(sortLearnings(list).map((c) => c.id)).toEqual(['new', 'old', 'low']);
    expect(list.map((c) => c.id)).toEqual(['low', 'old', 'new']);
  });
});

describe('table notes', () => {
  const note: TableNote = {
    id: 'n',
    schema: 'public',
    table: 'orders',
    description: 'Orders.',
    data_quality: ['Duplicates in Q1.'],
    columns: { amount: 'In cents', gone: 'A dropped column' },
    updated_at: '',
  };

  it('names tables the way the schema browser does', () => {
    expect(qualifiedName(note)).toBe('public.orders');
    expect(qualifiedName({ schema: null, name: 'track' })).toBe('track');
  });

  it('offers a note field for every current column, filled from the stored notes', () => {
    expect(tableNoteFormFrom(note, ['id', 'amount'])).toEqual({ description: 'Orders.', dataQuality: 'Duplicates in Q1.', columns: { id: '', amount: 'In cents' } });
    expect(tableNoteFormFrom(undefined, ['id'])).toEqual({ description: '', dataQuality: '', columns: { id: '' } });
  });

  it('sends the table by schema and name, and only the columns that have a note', () => {
    expect(toTableNoteInput({ schema: 'public', name: 'orders' }, { description: ' ', dataQuality: ' Duplicates in Q1 \n', columns: { id: ' ', amount: ' In cents ' } })).toEqual({
      schema: 'public',
      table: 'orders',
      description: null,
      data_quality: ['Duplicates in Q1'],
      columns: { amount: 'In cents' },
    });
  });

  it('names the note that is too long', () => {
    expect(validateTableNote({ description: '', dataQuality: '', columns: { amount: 'x'.repeat(LIMITS.text + 1) } })).toEqual({
      columns: `The note on amount is longer than ${LIMITS.text.toLocaleString()} characters.`,
    });
    expect(Object.keys(validateTableNote({ description: 'x'.repeat(LIMITS.text + 1), dataQuality: 'ok', columns: {} }))).toEqual(['description']);
    expect(validateTableNote({ description: 'ok', dataQuality: 'ok', columns: { amount: 'ok' } })).toEqual({});
  });

  it('knows whether a table has any note', () => {
    expect(hasNotes(undefined)).toBe(false);
    expect(hasNotes({ ...note, description: null, data_quality: [], columns: {} })).toBe(false);
    expect(hasNotes({ ...note, description: null, data_quality: [] })).toBe(true);
  });
});

describe('list filter', () => {
  const items = [
    { q: 'Monthly revenue by region', sql: 'SELECT region, sum(amount) FROM orders' },
    { q: 'Top customers', sql: 'SELECT name FROM customers' },
  ];
  const text = (i: (typeof items)[number]) => `${i.q}\n${i.sql}`;

  it('keeps the items holding every word, in any case, in question or SQL', () => {
    expect(filterItems(items, '  REVENUE  orders ', text)).toEqual([items[0]]);
    expect(filterItems(items, 'select', text)).toEqual(items);
    expect(filterItems(items, 'revenue customers', text)).toEqual([]);
    expect(filterItems(items, ' ', text)).toBe(items);
  });
});

describe('export and import files', () => {
  it('names the export after the connection and the day, safely', () => {
    const day = new Date('2026-11-23T18:00:00Z');
    expect(exportFileName('Sales DB (prod)', day)).toBe('aigis-knowledge-Sales-DB-prod-2026-11-23.json');
    expect(exportFileName('../../etc/passwd', day)).toBe('aigis-knowledge-..-..-etc-passwd-2026-11-23.json');
    expect(exportFileName('ñ/ü', day)).toBe('aigis-knowledge-n-u-2026-11-23.json');
    expect(exportFileName('///', day)).toBe('aigis-knowledge-connection-2026-11-23.json');
  });

  const file = (text: string, size = new TextEncoder().encode(text).length) => ({ size, text: async () => text });

  it('reads a JSON object', async () => {
    expect(await readImportFile(file('{"version":1,"glossary":[]}'))).toEqual({ ok: true, body: { version: 1, glossary: [] } });
  });

  it('refuses a file over the bound without reading it', async () => {
    let read = false;
    const big = { size: LIMITS.importBytes + 1, text: async () => ((read = true), '{}') };
    const result = await readImportFile(big);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/at most 16 MB/);
    expect(read).toBe(false);
  });

  it('refuses an empty file, one that is not JSON, and JSON that is not an object', async () => {
    expect(await readImportFile(file(''))).toEqual({ ok: false, message: 'The file is empty.' });
    expect(await readImportFile(file('<html>'))).toMatchObject({ ok: false, message: expect.stringContaining('not JSON') });
    for (const text of ['[1,2]', 'null', '"text"', '42']) {
      expect(await readImportFile(file(text))).toMatchObject({ ok: false, message: expect.stringContaining('a JSON object was expected') });
    }
  });

  it('says what an import did, leaving out what it did not touch', () => {
    const result: KnowledgeImportResult = {
      mode: 'merge',
      instructions: 'kept',
      glossary: { added: 2, updated: 1 },
      tables: { added: 0, updated: 0 },
      examples: { added: 3, skipped: 0, rejected: 1 },
      learnings: { added: 0, merged: 0 },
      rejected_examples: [],
    };
    expect(describeImport(result)).toBe('terms: 2 added, 1 updated; examples: 3 added, 1 rejected');
    expect(describeImport({ ...result, instructions: 'replaced', glossary: { added: 0, updated: 0 }, examples: { added: 0, skipped: 0, rejected: 0 } })).toBe('instructions replaced');
    expect(describeImport({ ...result, glossary: { added: 0, updated: 0 }, examples: { added: 0, skipped: 0, rejected: 0 } })).toBe('nothing new');
  });
});
