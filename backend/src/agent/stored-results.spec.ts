import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { messagesStateReducer } from '@langchain/langgraph';
import type { SqlResultContent } from '@aigis/contracts';
import { describe, expect, it } from 'vitest';
import { toThreadMessages } from './thread-messages.js';
import { boundTurnStore, lastResultRows, withoutRows } from './stored-results.js';

function table(id: string, rows: number, width = 100): ToolMessage {
  const artifact: SqlResultContent = {
    type: 'sql_result',
    sql: 'SELECT v',
    columns: ['i', 'v'],
    rows: Array.from({ length: rows }, (_, i) => ({ i, v: 'v'.repeat(width) })),
    row_count: rows,
    truncated: false,
    elapsed_ms: 1,
  };
  return new ToolMessage({ id, tool_call_id: id, name: 'ask_database', content: 'Ran: …', artifact });
}

const reduce = (left: BaseMessage[], right: BaseMessage[], budget: number) => messagesStateReducer(left, boundTurnStore(left, right, budget)) as BaseMessage[];

describe('the turn store budget', () => {
  it('stores what fits whole, and a later result of the same turn with the rows that still fit', () => {
    const turn = reduce([], [new HumanMessage({ id: 'h', content: 'q' }), new AIMessage({ id: 'a', content: '' }), table('t1', 20)], 6000);
    const stored = reduce(turn, [table('t2', 40)], 6000);
    const first = (stored[2] as ToolMessage).artifact as SqlResultContent;
    const second = (stored[3] as ToolMessage).artifact as SqlResultContent;
    expect(first.rows).toHaveLength(20);
    expect(first.truncated_reason).toBeUndefined();
    expect(second.truncated).toBe(true);
    expect(second.truncated_reason).toBe('turn_store_bytes');
    expect(second.rows.length).toBeGreaterThan(0);
    expect(second.rows.length).toBeLessThan(40);
    expect(second.row_count).toBe(second.rows.length);
    expect(JSON.stringify(first).length + JSON.stringify(second).length).toBeLessThanOrEqual(6000);
    expect((stored[3] as ToolMessage).tool_call_id).toBe('t2');
  });

  it('gives every turn its own budget', () => {
    const first = reduce([], [new HumanMessage({ id: 'h1', content: 'q' }), table('t1', 20)], 6000);
    const second = reduce(first, [new HumanMessage({ id: 'h2', content: 'q' }), table('t2', 20)], 6000);
    expect(((second[3] as ToolMessage).artifact as SqlResultContent).rows).toHaveLength(20);
  });
});

describe('sql_result stored without rows', () => {
  it('drops the rows, which are read back from the newest table in the messages', () => {
    const messages = [new HumanMessage('q'), table('t1', 3), new HumanMessage('r'), table('t2', 5)];
    const stored = withoutRows({ sql: 'SELECT v', columns: ['i', 'v'], rows: [{ i: 0 }], row_count: 5, truncated: false })!;
    expect(stored).not.toHaveProperty('rows');
    expect(lastResultRows(messages, stored)).toHaveLength(5);
  });
});

describe('a chart of the table before it', () => {
  it('is stored without its rows, and shown with them again', () => {
    const data = table('t1', 30);
    const rows = (data.artifact as SqlResultContent).rows;
    const chart = new ToolMessage({
      id: 'c1',
      tool_call_id: 'c1',
      name: 'ask_analyst',
      content: 'Chart drawn',
      artifact: { type: 'vega_lite_spec', spec: { mark: 'bar', data: { values: rows } } },
    });
    const stored = reduce([], [new HumanMessage({ id: 'h', content: 'q' }), data, chart], 1_000_000);
    expect(JSON.stringify((stored[2] as ToolMessage).artifact)).not.toContain('vvvv');
    const shown = toThreadMessages(stored);
    expect(shown[2].result).toEqual({ type: 'vega_lite_spec', spec: { mark: 'bar', data: { values: rows } } });
  });

  it('keeps rows that are not the table’s', () => {
    const chart = new ToolMessage({ id: 'c1', tool_call_id: 'c1', name: 'ask_analyst', content: 'x', artifact: { type: 'vega_lite_spec', spec: { data: { values: [{ a: 1 }] } } } });
    const stored = reduce([], [new HumanMessage({ id: 'h', content: 'q' }), table('t1', 3), chart], 1_000_000);
    expect(toThreadMessages(stored)[2].result).toEqual({ type: 'vega_lite_spec', spec: { data: { values: [{ a: 1 }] } } });
  });
});
