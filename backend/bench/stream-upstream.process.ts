/**
 * The scripted upstream of the stream benchmark, in its own process so that its work (and the
 * clients') does not run on the API server's event loop or the clients' one. Controlled over IPC.
 */
import { reply, startFakeOpenAI, type FakeRequest } from '@aigis/test-support/fake-openai';

export const STAMP = '@@T@@';

export interface UpstreamScript {
  tokens: number;
  tokensPerSecond: number;
  /** First answer with an ask_database tool call (and the SQL for it), then the streamed text. */
  withTool: boolean;
}

let script: UpstreamScript = { tokens: 10, tokensPerSecond: 0, withTool: false };

function respond(request: FakeRequest) {
  if (request.system.includes('You write exactly one read-only')) return reply.text('SELECT COUNT(*) AS tracks FROM track');
  if (request.tools.length === 0) return undefined;
  if (script.withTool && request.lastMessage?.role === 'user') return reply.toolCalls({ name: 'ask_database', args: { question: request.lastContent } });
  return reply.text(Array.from({ length: script.tokens }, () => `⟦${STAMP}⟧ `), { tokensPerSecond: script.tokensPerSecond });
}

const fake = await startFakeOpenAI({ models: ['qwen/qwen3-8b'], record: false, stampPlaceholder: STAMP, responder: respond });
process.on('message', (message: { script?: UpstreamScript; close?: boolean }) => {
  if (message.script) script = message.script;
  if (message.close) void fake.close().then(() => process.exit(0));
  process.send?.({ ok: true });
});
process.send?.({ url: fake.url });
