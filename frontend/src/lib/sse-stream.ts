import { SseParser, type StreamEvent } from '@aigis/contracts';

/**
 * Bytes → stream events. A network chunk may end in the middle of a multi-byte UTF-8 character,
 * so bytes go through one streaming TextDecoder before the (text) SSE parser sees them.
 */
export class SseByteDecoder {
  private readonly decoder = new TextDecoder('utf-8');
  private readonly parser = new SseParser();

  push(bytes: Uint8Array): StreamEvent[] {
    return this.parser.push(this.decoder.decode(bytes, { stream: true }));
  }

  /** The stream closed: decode what the decoder held back and deliver an unterminated last event. */
  end(): StreamEvent[] {
    const events = this.parser.push(this.decoder.decode());
    return events.concat(this.parser.flush());
  }
}

/** Reads an SSE response body to its end, yielding events as they complete. */
export async function* readSseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new SseByteDecoder();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* decoder.push(value);
    }
    finished = true;
    yield* decoder.end();
  } finally {
    // A consumer that stops early (an `end` event, Stop) closes the body so the server sees it.
    if (!finished) reader.cancel().catch(() => undefined);
    else reader.releaseLock();
  }
}
