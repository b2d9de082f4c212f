import { describe, expect, it } from 'vitest';
import { activityLabel, toDisplayItems, toolResultOf } from './message-view';

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

  it('labels live tool activity', () => {
    expect(activityLabel('ask_database', {})).toBe('Querying the database…');
    expect(activityLabel('ask_analyst', {})).toBe('Drawing a chart…');
    expect(activityLabel('describe_table', { table: 'orders' })).toBe('Reading the table orders…');
  });
});
