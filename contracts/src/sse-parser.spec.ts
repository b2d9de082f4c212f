import { describe, expect, it } from 'vitest';
import { SseParser } from './sse-parser.js';
import { encodeSseEvent, SSE_PING, type StreamEvent } from './stream-events.js';

const events: StreamEvent[] = [
  { type: 'chunk', data: { content: 'Hé\nllo' } },
  { type: 'tool_call', data: { id: 'c1', name: 'ask_database', args: { question: 'how many?' } } },
  { type: 'tool_result', data: { id: 'c1', name: 'ask_database', content: { type: 'sql_result', sql: 'SELECT 1', columns: ['n'], rows: [{ n: 1 }], row_count: 1, truncated: false, elapsed_ms: 2 } } },
  { type: 'error', data: { error: 'boom', code: 'UPSTREAM_FAILED' } },
  { type: 'end', data: { full_response: 'Hé\nllo' } },
];

describe('SSE encoding and parsing', () => {
  const wire = events.map((e, i) => (i === 2 ? SSE_PING : '') + encodeSseEvent(e)).join('');

  it('round-trips every event type, skipping ping comments', () => {
    expect(new SseParser().push(wire)).toEqual(events);
  });

  it('reassembles events split at every possible position', () => {
    for (let cut = 1; cut < wire.length; cut++) {
      const parser = new SseParser();
      expect([...parser.push(wire.slice(0, cut)), ...parser.push(wire.slice(cut)), ...parser.flush()]).toEqual(events);
    }
  });

  it('accepts CRLF line endings, ignores unknown events and broken JSON, and flushes an unterminated last event', () => {
    const parser = new SseParser();
    const text = 'event: chunk\r\ndata: {"content":"a"}\r\n\r\nevent: other\ndata: {}\n\nevent: chunk\ndata: {broken\n\nevent: end\ndata: {"full_response":"a"}';
    expect(parser.push(text)).toEqual([{ type: 'chunk', data: { content: 'a' } }]);
    expect(parser.flush()).toEqual([{ type: 'end', data: { full_response: 'a' } }]);
  });
});
