import type { StreamEvent, ThreadMessage } from '@aigis/contracts';
import { describe, expect, it } from 'vitest';
import { chatReducer, emptyChat, type ChatAction, type ChatState } from './chat-state';
import { toDisplayItems } from './message-view';

const ev = (event: StreamEvent): ChatAction => ({ type: 'event', event });
const chunk = (content: string) => ev({ type: 'chunk', data: { content } });
const call = (id: string, name: string, args: Record<string, unknown>) => ev({ type: 'tool_call', data: { id, name, args } });
const sqlResult = {
  type: 'sql_result' as const,
  sql: 'SELECT 1 AS n',
  columns: ['n'],
  rows: [{ n: 1 }],
  row_count: 1,
  truncated: false,
  elapsed_ms: 3,
};
const chartResult = { type: 'vega_lite_spec' as const, spec: { mark: 'bar', data: { values: [{ n: 1 }] } } };

function run(actions: ChatAction[], from: ChatState = emptyChat): ChatState {
  return actions.reduce(chatReducer, from);
}

/** Ids are local while streaming; the server assigns its own, so comparisons ignore them. */
function withoutIds(messages: ThreadMessage[]) {
  return messages.map(({ id: _id, ...rest }) => rest);
}

describe('chat reducer', () => {
  it('appends chunks in order to one assistant message', () => {
    const s = run([{ type: 'start', turnId: 't1', content: 'How many?' }, chunk('There '), chunk('are '), chunk('42.')]);
    expect(withoutIds(s.messages)).toEqual([
      { role: 'user', content: 'How many?' },
      { role: 'assistant', content: 'There are 42.' },
    ]);
    expect(s.turn?.status).toBe('streaming');
    const done = chatReducer(s, ev({ type: 'end', data: { full_response: 'There are 42.' } }));
    expect(done.turn?.status).toBe('done');
    expect(done.messages).toHaveLength(2);
  });

  it('produces the same message list as GET /api/chat/:id for a turn with tools', () => {
    const s = run([
      { type: 'start', turnId: 't1', content: 'Sales by year as a chart' },
      chunk('Let me look.'),
      call('c1', 'ask_database', { question: 'sales by year' }),
      ev({ type: 'tool_result', data: { id: 'c1', name: 'ask_database', content: sqlResult } }),
      call('c2', 'ask_analyst', { request: 'bar chart' }),
      ev({ type: 'tool_result', data: { id: 'c2', name: 'ask_analyst', content: chartResult } }),
      chunk('Here is '),
      chunk('the chart.'),
      ev({ type: 'end', data: { full_response: 'Here is the chart.' } }),
    ]);
    // What the API answers after a reload (ids aside; tool content is the JSON of the result).
    const reloaded: Omit<ThreadMessage, 'id'>[] = [
      { role: 'user', content: 'Sales by year as a chart' },
      { role: 'assistant', content: 'Let me look.', tool_calls: [{ id: 'c1', name: 'ask_database', args: { question: 'sales by year' } }] },
      { role: 'tool', content: JSON.stringify(sqlResult), tool_call_id: 'c1', tool_name: 'ask_database', result: sqlResult },
      { role: 'assistant', content: '', tool_calls: [{ id: 'c2', name: 'ask_analyst', args: { request: 'bar chart' } }] },
      { role: 'tool', content: JSON.stringify(chartResult), tool_call_id: 'c2', tool_name: 'ask_analyst', result: chartResult },
      { role: 'assistant', content: 'Here is the chart.' },
    ];
    expect(withoutIds(s.messages)).toEqual(reloaded);

    // And both render to the same display items.
    const fromServer = reloaded.map((m, i) => ({ ...m, id: `srv${i}` }));
    const strip = (items: ReturnType<typeof toDisplayItems>) =>
      items.map((it) => ({ ...it, message: { ...it.message, id: '' } }));
    expect(strip(toDisplayItems(s.messages))).toEqual(strip(toDisplayItems(fromServer)));
  });

  it('pairs interleaved parallel tool calls and results by id', () => {
    const s = run([
      { type: 'start', turnId: 't1', content: 'two things' },
      call('a', 'describe_table', { table: 'orders' }),
      call('b', 'describe_table', { table: 'customers' }),
      ev({ type: 'tool_result', data: { id: 'b', name: 'describe_table', content: { type: 'text', text: 'customers(id)' } } }),
      ev({ type: 'tool_result', data: { id: 'a', name: 'describe_table', content: { type: 'text', text: 'orders(id)' } } }),
    ]);
    // Parallel calls share one assistant message, as one model step does.
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(s.messages[1].tool_calls?.map((c) => c.id)).toEqual(['a', 'b']);
    const [, assistant] = toDisplayItems(s.messages);
    expect(assistant.kind === 'assistant' && assistant.calls.map((c) => [c.id, c.result])).toEqual([
      ['a', { type: 'text', text: 'orders(id)' }],
      ['b', { type: 'text', text: 'customers(id)' }],
    ]);
  });

  it('shows a pending call without a result until it arrives', () => {
    const s = run([{ type: 'start', turnId: 't1', content: 'q' }, call('a', 'ask_database', { question: 'q' })]);
    const [, assistant] = toDisplayItems(s.messages);
    expect(assistant.kind === 'assistant' && assistant.calls[0].result).toBeNull();
  });

  it('keeps what arrived when an error event comes mid-stream', () => {
    const s = run([
      { type: 'start', turnId: 't1', content: 'q' },
      chunk('Partial '),
      chunk('answer'),
      ev({ type: 'error', data: { error: 'Upstream model timed out', code: 'UPSTREAM_FAILED' } }),
      chunk(' late'),
    ]);
    expect(withoutIds(s.messages)).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'Partial answer' },
    ]);
    expect(s.turn?.status).toBe('error');
    expect(s.notices[s.messages[1].id]).toEqual({ kind: 'error', code: 'UPSTREAM_FAILED', message: 'Upstream model timed out' });
  });

  it('marks the turn stopped on abort and ignores events that still arrive', () => {
    const s = run([
      { type: 'start', turnId: 't1', content: 'q' },
      chunk('Half'),
      { type: 'abort' },
      chunk(' more'),
      ev({ type: 'end', data: { full_response: 'Half more' } }),
    ]);
    expect(s.messages[1].content).toBe('Half');
    expect(s.turn?.status).toBe('stopped');
    expect(s.notices[s.messages[1].id]).toEqual({ kind: 'stopped' });
  });

  it('anchors a failure before any answer on the user message', () => {
    const s = run([
      { type: 'start', turnId: 't1', content: 'q' },
      { type: 'local_error', code: 'MODEL_UNAVAILABLE', message: 'no key' },
    ]);
    expect(s.messages).toHaveLength(1);
    expect(s.notices[s.messages[0].id]).toMatchObject({ kind: 'error', code: 'MODEL_UNAVAILABLE' });
  });

  it('renders a direct SQL: message as a call with its result and no text', () => {
    const s = run([
      { type: 'start', turnId: 't1', content: 'SQL: SELECT 1 AS n' },
      call('sql-1', 'ask_database', { sql: 'SELECT 1 AS n' }),
      ev({ type: 'tool_result', data: { id: 'sql-1', name: 'ask_database', content: sqlResult } }),
      ev({ type: 'end', data: { full_response: '' } }),
    ]);
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(s.turn?.status).toBe('done');
  });

  it('turns end.full_response into the answer when no chunk streamed', () => {
    const s = run([{ type: 'start', turnId: 't1', content: 'q' }, ev({ type: 'end', data: { full_response: 'All at once.' } })]);
    expect(withoutIds(s.messages)).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'All at once.' },
    ]);
  });

  it('gives every message of a turn a distinct id and starts the next turn after the last', () => {
    const first = run([{ type: 'start', turnId: 't1', content: 'a' }, chunk('x'), call('c', 'ask_database', {}), ev({ type: 'tool_result', data: { id: 'c', name: 'ask_database', content: sqlResult } }), chunk('y'), ev({ type: 'end', data: { full_response: 'y' } })]);
    const second = run([{ type: 'start', turnId: 't2', content: 'b' }, chunk('z')], first);
    const ids = second.messages.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'z' });
    expect(second.messages.at(-3)).toMatchObject({ role: 'assistant', content: 'y' });
  });

  it('replaces the list on load and forgets notices', () => {
    const stopped = run([{ type: 'start', turnId: 't1', content: 'q' }, { type: 'abort' }]);
    const loaded = chatReducer(stopped, { type: 'load', messages: [{ id: 'm1', role: 'user', content: 'hi' }] });
    expect(loaded).toEqual({ messages: [{ id: 'm1', role: 'user', content: 'hi' }], turn: null, notices: {}, pendingReview: null });
  });

  describe('review before run', () => {
    const proposal = {
      id: 'p1',
      tool_call_id: 'c1',
      sql: 'SELECT count(*) FROM a CROSS JOIN b',
      dialect: 'postgres' as const,
      estimate: { cost: 120_000, rows: 7_800_000, scans: [{ table: 'a', rows: 3503 }] },
      reason: 'expensive: about 7.8 M rows to process (limit 1 M)',
      mode: 'expensive' as const,
      direct: false,
    };
    const paused = () =>
      run([
        { type: 'start', turnId: 't1', content: 'pairs?' },
        { type: 'event', event: { type: 'tool_call', data: { id: 'c1', name: 'ask_database', args: { question: 'pairs?' } } } },
        { type: 'event', event: { type: 'confirm_required', data: proposal } },
        { type: 'event', event: { type: 'end', data: { full_response: '' } } },
      ]);

    it('keeps the proposal after the paused turn ends, with the call still unanswered', () => {
      const state = paused();
      expect(state.pendingReview).toEqual(proposal);
      expect(state.turn?.status).toBe('done');
      expect(toDisplayItems(state.messages).at(-1)).toMatchObject({ kind: 'assistant', calls: [{ id: 'c1', result: null }] });
    });

    it('resumes without a new user message: the result lands on the paused call, then the answer', () => {
      const resumed = run(
        [
          { type: 'resume', turnId: 't2' },
          { type: 'event', event: { type: 'tool_result', data: { id: 'c1', name: 'ask_database', content: { type: 'sql_result', sql: 'SELECT 1', columns: ['n'], rows: [{ n: 1 }], row_count: 1, truncated: false, elapsed_ms: 3 } } } },
          chunk('One pair.'),
          { type: 'event', event: { type: 'end', data: { full_response: 'One pair.' } } },
        ],
        paused(),
      );
      expect(resumed.pendingReview).toBeNull();
      expect(resumed.messages.filter((m) => m.role === 'user')).toHaveLength(1);
      const items = toDisplayItems(resumed.messages);
      expect(items[1]).toMatchObject({ kind: 'assistant', calls: [{ id: 'c1', result: { type: 'sql_result' } }] });
      expect(items.at(-1)).toMatchObject({ kind: 'assistant', message: { content: 'One pair.' } });
    });

    it('a new message clears the waiting proposal (the server refuses it first)', () => {
      expect(run([{ type: 'start', turnId: 't3', content: 'something else' }], paused()).pendingReview).toBeNull();
    });

    it('loads a pending proposal with the thread', () => {
      expect(chatReducer(emptyChat, { type: 'load', messages: [], pendingReview: proposal }).pendingReview).toEqual(proposal);
    });
  });
});
