import { SseParser, type StreamEvent } from '@aigis/contracts';

export interface StreamedAnswer {
  status: number;
  contentType: string | null;
  events: StreamEvent[];
  /** The raw wire text (comments included). */
  raw: string;
  /** Milliseconds from sending to each event. */
  times: number[];
  /** Set when the server answered with a JSON error instead of a stream. */
  json?: any;
  /** The answer passed `maxChars` and was not read to its end. */
  overflowed?: boolean;
}

/**
 * Sends one chat message and reads the SSE answer as it arrives (used by tests and the stream
 * benchmark). `onEvent` may abort through the given controller to simulate a client going away.
 */
export async function streamMessage(
  baseUrl: string,
  token: string,
  threadId: string,
  content: string,
  options: StreamOptions = {},
): Promise<StreamedAnswer> {
  return streamPost(`${baseUrl}/api/chat/${threadId}/message`, token, { content }, options);
}

export interface StreamOptions {
  signal?: AbortSignal;
  /** Stop reading (and close the request) once the answer passes this many characters; `overflowed` is set. */
  maxChars?: number;
  onEvent?: (event: StreamEvent, index: number) => void;
}

/** Sends a review decision (`POST /api/chat/:id/confirm`) and reads the rest of the turn like a message. */
export function streamConfirm(
  baseUrl: string,
  token: string,
  threadId: string,
  body: { decision: 'approve' | 'deny'; sql?: string; reason?: string; proposal_id?: string },
  options: StreamOptions = {},
): Promise<StreamedAnswer> {
  return streamPost(`${baseUrl}/api/chat/${threadId}/confirm`, token, body, options);
}

async function streamPost(url: string, token: string, body: unknown, options: StreamOptions): Promise<StreamedAnswer> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: options.signal,
  });
  const contentType = response.headers.get('content-type');
  const answer: StreamedAnswer = { status: response.status, contentType, events: [], raw: '', times: [] };
  if (!contentType?.includes('text/event-stream')) {
    answer.json = await response.json();
    return answer;
  }
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  const take = (events: StreamEvent[]) => {
    for (const event of events) {
      answer.events.push(event);
      answer.times.push(performance.now() - started);
      options.onEvent?.(event, answer.events.length - 1);
    }
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      if (options.maxChars !== undefined && answer.raw.length + text.length > options.maxChars) {
        answer.overflowed = true;
        await reader.cancel();
        break;
      }
      answer.raw += text;
      take(parser.push(text));
    }
    if (!answer.overflowed) take(parser.flush());
  } catch (error) {
    if (!options.signal?.aborted) throw error;
  }
  return answer;
}
