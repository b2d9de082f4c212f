import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reply, startFakeOpenAI, type FakeOpenAI } from './fake-openai.js';

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['m-a', 'm-b'] });
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

interface Sse {
  status: number;
  headers: Headers;
  /** Parsed `data:` payloads ('[DONE]' kept as a string). */
  events: any[];
  /** performance.now() at each event's arrival. */
  times: number[];
  started: number;
}

function postCompletion(body: Record<string, unknown>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${fake.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal });
}

/** Starts a streamed completion with no messages; the test reads it and aborts `controller` to leave. */
async function openStream(controller: AbortController): Promise<ReadableStreamDefaultReader<Uint8Array>> {
  const res = await postCompletion({ model: 'm-a', messages: [], stream: true }, controller.signal);
  return res.body!.getReader();
}

/** POSTs a chat completion and reads the SSE answer event by event. */
async function chat(body: Record<string, unknown>, signal?: AbortSignal): Promise<Sse> {
  const started = performance.now();
  const res = await postCompletion({ model: 'm-a', messages: [{ role: 'user', content: 'hi' }], stream: true, ...body }, signal);
  const out: Sse = { status: res.status, headers: res.headers, events: [], times: [], started };
  if (!res.headers.get('content-type')?.startsWith('text/event-stream')) {
    out.events.push(await res.json());
    return out;
  }
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const bytes of res.body!) {
    buffer += decoder.decode(bytes, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame.replace(/^data: /, '');
      out.events.push(data === '[DONE]' ? data : JSON.parse(data));
      out.times.push(performance.now());
    }
  }
  return out;
}

const contentOf = (events: any[]) => events.filter((e) => e !== '[DONE]' && e.choices[0]?.delta?.content).map((e) => e.choices[0].delta.content);

describe('fake OpenAI server', () => {
  it('streams text as chat.completion.chunk events, then finish_reason, usage on request, and [DONE]', async () => {
    fake.enqueue(reply.text('a b c'));
    const { events } = await chat({ stream_options: { include_usage: true } });
    expect(events[0].choices[0].delta).toEqual({ role: 'assistant', content: '' });
    expect(contentOf(events)).toEqual(['a', ' b', ' c']);
    expect(events.at(-3).choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    expect(events.at(-2)).toMatchObject({ choices: [], usage: { completion_tokens: 3 } });
    expect(events.at(-1)).toBe('[DONE]');
    const ids = new Set(events.filter((e) => e !== '[DONE]').map((e) => e.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^chatcmpl-/);
    expect(events.every((e) => e === '[DONE]' || e.object === 'chat.completion.chunk')).toBe(true);

    fake.enqueue(reply.text('x'));
    const plain = await chat({});
    expect(plain.events.some((e) => e !== '[DONE]' && e.usage)).toBe(false);
  });

  it('gives every response its own completion id', async () => {
    fake.script(() => reply.text('same'));
    await Promise.all(Array.from({ length: 20 }, () => chat({})));
    const ids = fake.completions().map((r) => r.completionId);
    expect(new Set(ids).size).toBe(20);
  });

  it('streams tool calls: id and name first, the arguments over several deltas, several calls per message', async () => {
    fake.enqueue(
      reply.toolCalls([
        { id: 'call_1', name: 'ask_database', args: { question: 'How many customers are there?' } },
        { name: 'ask_analyst', args: { request: 'bar chart' } },
      ]),
    );
    const { events } = await chat({ tools: [{ type: 'function', function: { name: 'ask_database', parameters: {} } }] });
    const deltas = events.filter((e) => e !== '[DONE]').flatMap((e) => e.choices[0]?.delta?.tool_calls ?? []);
    const first = deltas.filter((d) => d.id);
    expect(first).toEqual([
      { index: 0, id: 'call_1', type: 'function', function: { name: 'ask_database', arguments: '' } },
      { index: 1, id: expect.stringMatching(/^call_/), type: 'function', function: { name: 'ask_analyst', arguments: '' } },
    ]);
    const args = (index: number) =>
      deltas
        .filter((d) => d.index === index && !d.id)
        .map((d) => d.function.arguments)
        .join('');
    expect(deltas.filter((d) => d.index === 0 && !d.id).length).toBeGreaterThan(2);
    expect(JSON.parse(args(0))).toEqual({ question: 'How many customers are there?' });
    expect(JSON.parse(args(1))).toEqual({ request: 'bar chart' });
    expect(events.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(fake.completions()[0]!.toolNames).toEqual(['ask_database']);
  });

  it('answers non-streamed requests with one chat.completion', async () => {
    fake.enqueue(reply.toolCalls({ id: 'c1', name: 'f', args: { a: 1 } }, { content: 'thinking' }));
    const { events } = await chat({ stream: false });
    expect(events[0]).toMatchObject({
      object: 'chat.completion',
      id: expect.stringMatching(/^chatcmpl-/),
      choices: [
        {
          message: { role: 'assistant', content: 'thinking', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { total_tokens: expect.any(Number) },
    });
  });

  it('paces tokens at the configured rate after the first-token delay', async () => {
    fake.enqueue(reply.text(Array.from({ length: 20 }, (_, i) => `t${i} `), { tokensPerSecond: 100, firstTokenDelayMs: 150 }));
    const { events, times, started } = await chat({});
    const contentTimes = times.filter((_, i) => events[i] !== '[DONE]' && events[i].choices[0]?.delta?.content);
    expect(contentTimes).toHaveLength(20);
    expect(contentTimes[0]! - started).toBeGreaterThanOrEqual(140);
    const spread = contentTimes.at(-1)! - contentTimes[0]!;
    expect(spread).toBeGreaterThanOrEqual(170); // 19 intervals of 10 ms
    expect(spread).toBeLessThan(1000);
  });

  it('plays 100 concurrent streams at 100 tokens/s in about the paced time', async () => {
    const tokens = Array.from({ length: 50 }, (_, i) => ` w${i}`);
    fake.script(() => reply.text(tokens, { tokensPerSecond: 100 }));
    const started = performance.now();
    const results = await Promise.all(Array.from({ length: 100 }, () => chat({})));
    const elapsed = performance.now() - started;
    for (const r of results) expect(contentOf(r.events)).toEqual(tokens);
    // Paced: 50 tokens at 100/s take 0.5 s however many streams run. Played one after another they
    // would take 50 s; the upper bound is loose because the client shares this process (and the CPU).
    expect(elapsed).toBeGreaterThanOrEqual(480);
    expect(elapsed).toBeLessThan(5000);
  });

  it('answers from the queue first, then from the responder (by model id or system prompt)', async () => {
    fake.script((req) => {
      if (req.system.includes('Write SQL')) return reply.text('SELECT 1');
      if (req.model === 'm-b') return reply.text('from b');
      return undefined;
    });
    fake.enqueue(reply.text('queued'));
    const answer = async (body: Record<string, unknown>) => contentOf((await chat(body)).events).join('');
    expect(await answer({ model: 'm-b' })).toBe('queued');
    expect(await answer({ model: 'm-b' })).toBe('from b');
    expect(await answer({ messages: [{ role: 'system', content: 'Write SQL for sqlite.' }, { role: 'user', content: 'how many?' }] })).toBe('SELECT 1');
    const unscripted = await chat({ model: 'm-a', messages: [{ role: 'user', content: 'anything else' }] });
    expect(unscripted.status).toBe(400);
    expect(unscripted.events[0].error.message).toMatch(/no response scripted for request #4 \(model m-a: "anything else"\)/);
  });

  it('plays HTTP errors with Retry-After', async () => {
    fake.enqueue(reply.rateLimited(2), reply.error(503, { message: 'overloaded' }));
    const limited = await chat({});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    const failed = await chat({});
    expect(failed.status).toBe(503);
    expect(failed.events[0]).toEqual({ error: { message: 'overloaded', type: 'server_error', code: null } });
  });

  it('records a stalled stream closed by the client', async () => {
    fake.enqueue(reply.text('a b c d e', { stallAfter: 2 }));
    const controller = new AbortController();
    const reader = await openStream(controller);
    let text = '';
    while (!text.includes('" b"')) text += new TextDecoder().decode((await reader.read()).value);
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.completions()[0]!.clientClosed).toBe(false);
    controller.abort();
    await fake.waitFor(() => fake.completions()[0]!.clientClosed);
    expect(text).not.toContain('" c"');
  });

  it('streams an endless answer, repeating its tokens paced, until the client leaves', async () => {
    fake.enqueue(reply.endless('x y', { tokensPerSecond: 100 }));
    const controller = new AbortController();
    const reader = await openStream(controller);
    let text = '';
    const started = Date.now();
    while (Date.now() - started < 400) text += new TextDecoder().decode((await reader.read()).value);
    controller.abort();
    await fake.waitFor(() => fake.completions()[0]!.clientClosed);
    const tokens = text.match(/"content":"( ?[xy])"/g) ?? [];
    // 400 ms at 100 tokens/s: well past the two scripted tokens, in order, and never finished.
    expect(tokens.length).toBeGreaterThan(20);
    expect(tokens.length).toBeLessThan(60);
    expect(tokens.slice(0, 4)).toEqual(['"content":"x"', '"content":" y"', '"content":"x"', '"content":" y"']);
    expect(text).not.toContain('finish_reason":"stop"');
    expect(text).not.toContain('[DONE]');
  });

  it('lists its models for OpenAI (/v1/models) and Ollama (/api/tags) clients', async () => {
    fake.setModels(['x', 'y']);
    const openai = (await (await fetch(`${fake.url}/models`)).json()) as { data: { id: string }[] };
    expect(openai.data.map((m) => m.id)).toEqual(['x', 'y']);
    const ollama = (await (await fetch(`${fake.origin}/api/tags`)).json()) as { models: { name: string }[] };
    expect(ollama.models.map((m) => m.name)).toEqual(['x', 'y']);
    fake.setModels(['m-a', 'm-b']);
  });
});
