import { AIMessageChunk, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/common/app-error.js';
import { loadConfig } from '../src/config/env.schema.js';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { isAbortError, upstreamError } from '../src/llm/upstream-error.js';
import { reply, splitTokens, startFakeOpenAI, type FakeOpenAI } from '@aigis/test-support/fake-openai';

const askDatabase = tool(async () => '', {
  name: 'ask_database',
  description: 'Answer a question with one SQL query',
  schema: z.object({ question: z.string() }),
});
const askAnalyst = tool(async () => '', {
  name: 'ask_analyst',
  description: 'Draw a chart of the last result',
  schema: z.object({ request: z.string(), kind: z.enum(['bar', 'line']).optional() }),
});

let fake: FakeOpenAI;
const registries: ModelRegistry[] = [];

/** A registry whose LM Studio is the fake; LLM_* settings per test. */
async function lmStudio(env: Record<string, string> = {}): Promise<ModelRegistry> {
  const r = new ModelRegistry(
    loadConfig({ LM_STUDIO_ENDPOINT: fake.url, LLM_MAX_RETRIES: '2', LLM_TIMEOUT_MS: '5000', DEEPSEEK_API_KEY: 'dk-test', DEEPSEEK_BASE_URL: fake.url, ...env }),
    {},
  );
  registries.push(r);
  await r.refresh();
  return r;
}

async function collect(stream: AsyncIterable<AIMessageChunk>): Promise<AIMessageChunk[]> {
  const chunks: AIMessageChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

beforeAll(async () => {
  fake = await startFakeOpenAI({ models: ['openai/gpt-oss-20b', 'qwen/qwen3-8b'] });
});
afterEach(() => {
  fake.reset();
  for (const r of registries.splice(0)) r.onModuleDestroy();
});
afterAll(() => fake.close());

describe('chatModel streaming', () => {
  it('streams text token by token and sends the entry model_id upstream at temperature 0', async () => {
    const text = 'There are 1,204 orders from 312 customers in 2024.';
    fake.enqueue(reply.text(text));
    const model = (await lmStudio()).chatModel('qwen');
    const chunks = await collect(await model.stream([new SystemMessage('You are Aigis.'), new HumanMessage('How many orders?')]));
    const pieces = chunks.map((c) => c.content).filter((c) => c !== '');
    expect(pieces).toEqual(splitTokens(text));
    expect(pieces.join('')).toBe(text);
    const [request] = fake.completions();
    expect(request).toMatchObject({ model: 'qwen/qwen3-8b', stream: true, system: 'You are Aigis.', lastContent: 'How many orders?' });
    expect(request!.body.temperature).toBe(0);
    // Usage arrives as its own chunk (stream_options.include_usage).
    expect(chunks.at(-1)!.usage_metadata?.output_tokens).toBe(pieces.length);
  });

  it('assembles streamed tool-call deltas (several calls in one message) into tool calls', async () => {
    fake.enqueue(
      reply.toolCalls(
        [
          { id: 'call_db', name: 'ask_database', args: { question: 'How many orders per month in 2024?' } },
          { id: 'call_chart', name: 'ask_analyst', args: { request: 'orders per month', kind: 'bar' } },
        ],
        { content: 'Let me check.', argsChunkSize: 5 },
      ),
    );
    const model = (await lmStudio()).chatModel('gpt-oss').bindTools([askDatabase, askAnalyst]);
    const chunks = await collect(await model.stream('Chart the orders per month'));

    // The arguments really arrived in pieces, each piece its own chunk.
    const argPieces = chunks.flatMap((c) => c.tool_call_chunks ?? []).filter((t) => t.args);
    expect(argPieces.length).toBeGreaterThan(10);
    expect(chunks[0]!.tool_call_chunks ?? []).toEqual([]);

    const message = chunks.reduce((acc, c) => acc.concat(c));
    expect(message.content).toBe('Let me check.');
    expect(message.tool_calls).toEqual([
      { type: 'tool_call', id: 'call_db', name: 'ask_database', args: { question: 'How many orders per month in 2024?' } },
      { type: 'tool_call', id: 'call_chart', name: 'ask_analyst', args: { request: 'orders per month', kind: 'bar' } },
    ]);
    expect(message.response_metadata.finish_reason).toBe('tool_calls');
    const [request] = fake.completions();
    expect(request!.model).toBe('openai/gpt-oss-20b');
    expect(request!.toolNames).toEqual(['ask_database', 'ask_analyst']);
  });

  it('reports malformed tool-call JSON as an invalid tool call, streamed or not', async () => {
    const broken = '{"question": How many orders}';
    fake.enqueue(reply.toolCalls({ name: 'ask_database', args: broken }), reply.toolCalls({ name: 'ask_database', args: broken }));
    const registry = await lmStudio();
    const chunks = await collect(await registry.chatModel('qwen').bindTools([askDatabase]).stream('hi'));
    const streamed = chunks.reduce((acc, c) => acc.concat(c));
    const whole = await registry.chatModel('qwen', { streaming: false }).bindTools([askDatabase]).invoke('hi');
    for (const message of [streamed, whole]) {
      expect(message.tool_calls).toEqual([]);
      expect(message.invalid_tool_calls).toMatchObject([{ name: 'ask_database', args: broken }]);
    }
  });

  it('passes a call to a tool that was not offered through unchanged (the agent must answer it)', async () => {
    fake.enqueue(reply.toolCalls({ name: 'drop_tables', args: {} }));
    const message = await (await lmStudio()).chatModel('qwen').bindTools([askDatabase]).invoke('hi');
    expect(message.tool_calls).toMatchObject([{ name: 'drop_tables', args: {} }]);
  });

  it('answers in one piece when streaming is off', async () => {
    fake.enqueue(reply.toolCalls({ name: 'ask_database', args: { question: 'q' } }));
    const model = (await lmStudio()).chatModel('qwen', { streaming: false }).bindTools([askDatabase]);
    const message = await model.invoke('hi');
    expect(message.tool_calls).toMatchObject([{ name: 'ask_database', args: { question: 'q' } }]);
    expect(fake.completions()[0]!.stream).toBe(false);
  });

  it('sends the DeepSeek model id and key to DEEPSEEK_BASE_URL', async () => {
    fake.enqueue(reply.text('ok'));
    await (await lmStudio()).chatModel('deepseek').invoke('hi');
    expect(fake.completions()[0]).toMatchObject({ model: 'deepseek-chat', authorization: 'Bearer dk-test' });
  });
});

describe('chatModel retries and timeouts', () => {
  it('retries HTTP 429 with Retry-After, then succeeds', async () => {
    fake.enqueue(reply.rateLimited(0), reply.text('ok'));
    const message = await (await lmStudio()).chatModel('qwen').invoke('hi');
    expect(message.content).toBe('ok');
    expect(fake.completions().map((r) => r.status)).toEqual([429, 200]);
  });

  it('retries HTTP 500 twice, then succeeds (streaming)', async () => {
    fake.enqueue(...reply.times(2, reply.error(500)), reply.text('recovered answer'));
    const chunks = await collect(await (await lmStudio()).chatModel('qwen').stream('hi'));
    expect(chunks.map((c) => c.content).join('')).toBe('recovered answer');
    expect(fake.completions().map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it('gives up after LLM_MAX_RETRIES retries with an UPSTREAM_FAILED error', async () => {
    fake.enqueue(...reply.times(3, reply.error(503)), reply.text('too late'));
    const error = await (await lmStudio()).chatModel('qwen').invoke('hi').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(fake.completions().map((r) => r.status)).toEqual([503, 503, 503]);
    expect(fake.pending()).toBe(1);
    const appError = upstreamError(error, 'qwen3-8b');
    expect(appError).toBeInstanceOf(AppError);
    expect(appError.code).toBe('UPSTREAM_FAILED');
    expect(appError.message).toBe('qwen3-8b: the provider failed (HTTP 503); try again in a moment');
  });

  it('does not retry when LLM_MAX_RETRIES is 0', async () => {
    fake.enqueue(reply.error(500), reply.text('unused'));
    await expect((await lmStudio({ LLM_MAX_RETRIES: '0' })).chatModel('qwen').invoke('hi')).rejects.toThrow();
    expect(fake.completions()).toHaveLength(1);
  });

  it('times out a server that never answers after LLM_TIMEOUT_MS and closes the request', async () => {
    fake.enqueue(reply.hang());
    const model = (await lmStudio({ LLM_MAX_RETRIES: '0', LLM_TIMEOUT_MS: '1000' })).chatModel('qwen');
    const started = performance.now();
    const error = await model.invoke('hi').then(
      () => undefined,
      (e: unknown) => e,
    );
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(Error);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(3000);
    await fake.waitFor(() => fake.completions()[0]!.clientClosed, 1000);
    expect(upstreamError(error, 'qwen3-8b', 1000).message).toBe('qwen3-8b did not answer within 1 s');
    expect(isAbortError(error)).toBe(false);
  });

  it('retries after a timeout', async () => {
    fake.enqueue(reply.hang(), reply.text('second try'));
    const model = (await lmStudio({ LLM_MAX_RETRIES: '1', LLM_TIMEOUT_MS: '1000' })).chatModel('qwen');
    expect((await model.invoke('hi')).content).toBe('second try');
    expect(fake.completions().map((r) => r.clientClosed)).toEqual([true, false]);
  });

  it('surfaces a stream that breaks mid-way as an error, without replaying it', async () => {
    fake.enqueue(reply.text('one two three four five six', { breakAfter: 3 }), reply.text('unused'));
    const received: string[] = [];
    const error = await (async () => {
      for await (const chunk of await (await lmStudio()).chatModel('qwen').stream('hi')) received.push(String(chunk.content));
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(received.join('')).toBe('one two three');
    expect(fake.completions()).toHaveLength(1);
    expect(fake.completions()[0]!.brokenByServer).toBe(true);
    expect(upstreamError(error, 'qwen3-8b').code).toBe('UPSTREAM_FAILED');
  });
});

describe('chatModel abort', () => {
  it('aborting the signal mid-stream closes the upstream connection (also through bindTools)', async () => {
    fake.enqueue(reply.text(Array.from({ length: 50 }, (_, i) => ` t${i}`), { tokensPerSecond: 20 }));
    const controller = new AbortController();
    const model = (await lmStudio()).chatModel('qwen', { signal: controller.signal }).bindTools([askDatabase]);
    const received: string[] = [];
    const error = await (async () => {
      for await (const chunk of await model.stream('count slowly')) {
        if (chunk.content) received.push(String(chunk.content));
        if (received.length === 3) controller.abort();
      }
    })().then(
      () => undefined,
      (e: unknown) => e,
    );
    await fake.waitFor(() => fake.completions()[0]!.clientClosed, 1000);
    const request = fake.completions()[0]!;
    // 50 tokens at 20/s take 2.5 s: the connection closed long before the end.
    expect(request.clientClosedAt! - request.receivedAt).toBeLessThan(1000);
    expect(received.length).toBeLessThan(10);
    expect(isAbortError(error)).toBe(true);
    expect(fake.completions()).toHaveLength(1); // an abort is not retried
  });

  it('a signal passed at call time aborts a request that has no answer yet', async () => {
    fake.enqueue(reply.hang());
    const controller = new AbortController();
    const model = (await lmStudio()).chatModel('qwen');
    const pending = model.invoke('hi', { signal: controller.signal });
    await fake.waitFor(() => fake.completions().length === 1);
    controller.abort();
    const error = await pending.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAbortError(error)).toBe(true);
    await fake.waitFor(() => fake.completions()[0]!.clientClosed, 1000);
    expect(fake.completions()).toHaveLength(1);
  });
});
