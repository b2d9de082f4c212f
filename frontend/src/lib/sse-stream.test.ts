import { encodeSseEvent, type StreamEvent } from '@aigis/contracts';
import { describe, expect, it } from 'vitest';
import { readSseEvents, SseByteDecoder } from './sse-stream';

const events: StreamEvent[] = [
  { type: 'chunk', data: { content: 'Umsatz 2024: 12 345 € — 数据库 🚀' } },
  { type: 'tool_call', data: { id: 'c1', name: 'ask_database', args: { question: 'Wie viele Kunden?' } } },
  { type: 'chunk', data: { content: 'line1\nline2' } },
  { type: 'end', data: { full_response: 'fertig ✓' } },
];
const wire = new TextEncoder().encode(
  ': ping\n\n' + events.map(encodeSseEvent).join('') .replace('event: tool_call', ': ping\n\nevent: tool_call'),
);

function decodeInPieces(bytes: Uint8Array, cuts: number[]): StreamEvent[] {
  const decoder = new SseByteDecoder();
  const out: StreamEvent[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    out.push(...decoder.push(bytes.slice(at, cut)));
    at = cut;
  }
  return out.concat(decoder.end());
}

describe('SSE byte decoding', () => {
  it('decodes the whole stream in one piece, skipping ping comments', () => {
    expect(decodeInPieces(wire, [])).toEqual(events);
  });

  it('gives the same events for a split at every byte offset', () => {
    for (let cut = 1; cut < wire.length; cut++) {
      expect(decodeInPieces(wire, [cut]), `split at byte ${cut}`).toEqual(events);
    }
  });

  it('survives a split inside a multi-byte character', () => {
    const rocket = wire.indexOf(0xf0); // first byte of the 4-byte 🚀
    expect(rocket).toBeGreaterThan(0);
    // Without a streaming decoder these pieces would each turn into U+FFFD.
    expect(decodeInPieces(wire, [rocket + 1, rocket + 2, rocket + 3])).toEqual(events);
  });

  it('gives the same events when fed one byte at a time', () => {
    const cuts = Array.from({ length: wire.length - 1 }, (_, i) => i + 1);
    expect(decodeInPieces(wire, cuts)).toEqual(events);
  });

  it('handles CRLF line endings', () => {
    const crlf = new TextEncoder().encode(encodeSseEvent(events[0]).replace(/\n/g, '\r\n'));
    expect(decodeInPieces(crlf, [crlf.length - 1])).toEqual([events[0]]);
  });

  it('delivers an unterminated last event when the stream closes', () => {
    const text = encodeSseEvent(events[3]).trimEnd();
    expect(decodeInPieces(new TextEncoder().encode(text), [5])).toEqual([events[3]]);
  });

  it('reads a ReadableStream body to its end', async () => {
    const pieces = [wire.slice(0, 7), wire.slice(7, 61), wire.slice(61)];
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        pieces.forEach((p) => controller.enqueue(p));
        controller.close();
      },
    });
    const got: StreamEvent[] = [];
    for await (const e of readSseEvents(body)) got.push(e);
    expect(got).toEqual(events);
  });
});
