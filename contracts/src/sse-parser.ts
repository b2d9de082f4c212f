import { STREAM_EVENT_TYPES, type StreamEvent, type StreamEventType } from './stream-events.js';

/**
 * Incremental SSE parser: feed it text as it arrives (chunks may split lines or events anywhere)
 * and it returns the complete events. Comments (`: ping`) and unknown event types are skipped.
 */
export class SseParser {
  private buffer = '';

  push(text: string): StreamEvent[] {
    this.buffer += text.replace(/\r\n?/g, '\n');
    const events: StreamEvent[] = [];
    let boundary = this.buffer.indexOf('\n\n');
    while (boundary !== -1) {
      const block = this.buffer.slice(0, boundary);
      this.buffer = this.buffer.slice(boundary + 2);
      const event = parseBlock(block);
      if (event) events.push(event);
      boundary = this.buffer.indexOf('\n\n');
    }
    return events;
  }

  /** Whatever is left when the stream closes (an unterminated last event is still delivered). */
  flush(): StreamEvent[] {
    const rest = this.buffer;
    this.buffer = '';
    const event = rest.trim() ? parseBlock(rest) : null;
    return event ? [event] : [];
  }
}

function parseBlock(block: string): StreamEvent | null {
  let type = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
  }
  if (!STREAM_EVENT_TYPES.includes(type as StreamEventType) || data.length === 0) return null;
  try {
    return { type, data: JSON.parse(data.join('\n')) } as StreamEvent;
  } catch {
    return null;
  }
}
