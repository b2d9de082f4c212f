import { describe, expect, it } from 'vitest';
import { activityLabel, questionOf, toDisplayItems, toolResultOf } from './message-view';

describe('message view', () => {
  it('reads a tool result from `result`, else from JSON content, else as text', () => {
    const sql = { type: 'sql_result', sql: 'SELECT 1', columns: [], rows: [], row_count: 0, truncated: false, elapsed_ms: 1 };
    expect(toolResultOf({ id: '1', role: 'tool', content: 'ignored', result: sql })).toEqual(sql);
    expect(toolResultOf({ id: '2', role: 'tool', content: JSON.stringify(sql) })).toEqual(sql);
    expect(toolResultOf({ id: '3', role: 'tool', content: 'orders(id int)' })).toEqual({ type: 'text', text: 'orders(id int)' });
  });

  it('keeps a tool result whose call is missing as an item of its own', () => {
    const items = toDisplayItems([{ id: 't', role: 'tool', content: 'x', tool_call_id: 'gone' }]);
    expect(items.map((i) => i.kind)).toEqual(['tool']);
  });

  it('gives each answer the question of its turn, and none after SQL typed by hand', () => {
    const sql = { id: 'c1', name: 'ask_database', args: {} };
    const items = toDisplayItems([
      { id: '1', role: 'user', content: '  Top 5 artists?  ' },
      { id: '2', role: 'assistant', content: '', tool_calls: [sql] },
      { id: '3', role: 'assistant', content: 'Here they are.' },
      { id: '4', role: 'user', content: 'sql: SELECT 1' },
      { id: '5', role: 'assistant', content: '', tool_calls: [{ ...sql, id: 'c2' }] },
      { id: '6', role: 'tool', content: 'x', tool_call_id: 'orphan' },
    ]);
    expect(items.map((i) => (i.kind === 'user' ? 'user' : i.question))).toEqual(['user', 'Top 5 artists?', 'Top 5 artists?', 'user', null, null]);
    expect(questionOf('   ')).toBeNull();
  });

  it('labels live tool activity', () => {
    expect(activityLabel('ask_database', {})).toBe('Querying the database…');
    expect(activityLabel('ask_analyst', {})).toBe('Drawing a chart…');
    expect(activityLabel('save_learning', {})).toBe('Saving what it learned…');
    expect(activityLabel('describe_table', { table: 'orders' })).toBe('Reading the table orders…');
  });
});
