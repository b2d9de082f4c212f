/**
 * A scripted OpenAI-compatible HTTP server: the one fake of the test suite (the LLM), so the real
 * `@langchain/openai` client code runs against it. Also used by the stream benchmark, so it must not
 * import vitest and must stay cheap per token (100 concurrent streams at 100 tokens/s).
 *
 *   const fake = await startFakeOpenAI({ models: ['qwen/qwen3-8b'] });
 *   fake.enqueue(reply.rateLimited(0), reply.text('Hello there'));
 *   fake.script((req) => (req.system.includes('SQL') ? reply.text('SELECT 1') : undefined));
 *   … new ChatOpenAI({ configuration: { baseURL: fake.url } }) …
 *   await fake.close();
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

// ---------------------------------------------------------------------------------------------
// Scripted responses
// ---------------------------------------------------------------------------------------------

/** How fast a response is played. Applies to streamed responses; a non-streamed one waits as long in total. */
export interface Pacing {
  /** Content or tool-argument deltas per second; 0 = as fast as possible. Default: the server's option. */
  tokensPerSecond?: number;
  /** Delay before the first delta (after the headers and the role delta). Default: the server's option. */
  firstTokenDelayMs?: number;
}

/** Faults in the middle of a streamed response. */
export interface StreamFaults {
  /** Destroy the connection after this many deltas, without `finish_reason` or `[DONE]`. */
  breakAfter?: number;
  /** Stop sending after this many deltas and keep the connection open (a stalled stream). */
  stallAfter?: number;
  /** Never finish: after the last delta start again from the first, for as long as the client listens (streamed requests only). */
  endless?: boolean;
}

export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface FakeTextResponse extends Pacing, StreamFaults {
  kind: 'text';
  /** The tokens, each sent as one delta. */
  tokens: string[];
  finishReason?: string;
  /** Overrides the computed usage; `false` sends none even when the client asks for it. */
  usage?: Partial<Usage> | false;
}

export interface FakeToolCall {
  /** Default: a unique `call_…` id. */
  id?: string;
  name: string;
  /** An object is sent as JSON; a string is sent as is (so it can be malformed JSON). */
  args: Record<string, unknown> | string;
}

export interface FakeToolCallsResponse extends Pacing, StreamFaults {
  kind: 'tool_calls';
  /** Assistant text streamed before the tool calls. */
  content?: string;
  calls: { id: string; name: string; arguments: string }[];
  /** Characters of the arguments JSON per delta (default 8), so arguments always span several deltas. */
  argsChunkSize?: number;
  finishReason?: string;
  usage?: Partial<Usage> | false;
}

export interface FakeErrorResponse {
  kind: 'error';
  status: number;
  message?: string;
  /** Sent as the Retry-After header (seconds or an HTTP date). */
  retryAfter?: number | string;
  /** Replaces the OpenAI-style `{error:{…}}` body. */
  body?: unknown;
}

export interface FakeHangResponse {
  kind: 'hang';
}

export type FakeResponse = FakeTextResponse | FakeToolCallsResponse | FakeErrorResponse | FakeHangResponse;

let callCounter = 0;
const uniqueSuffix = () => `${(++callCounter).toString(36)}${randomBytes(6).toString('hex')}`;

/** Splits text into word-like tokens that keep their leading whitespace ("a b" → ["a", " b"]). */
export function splitTokens(text: string): string[] {
  return text.match(/\s*\S+|\s+$/g) ?? [];
}

/** Builders for scripted responses. */
export const reply = {
  /** Assistant text; a string is split into word tokens, an array is sent token by token. */
  text(content: string | string[], options: Omit<FakeTextResponse, 'kind' | 'tokens'> = {}): FakeTextResponse {
    return { kind: 'text', tokens: Array.isArray(content) ? content : splitTokens(content), ...options };
  },
  /** One or several tool calls in one assistant message. */
  toolCalls(
    calls: FakeToolCall | FakeToolCall[],
    options: Omit<FakeToolCallsResponse, 'kind' | 'calls'> = {},
  ): FakeToolCallsResponse {
    const list = Array.isArray(calls) ? calls : [calls];
    return {
      kind: 'tool_calls',
      calls: list.map((c) => ({
        id: c.id ?? `call_${uniqueSuffix()}`,
        name: c.name,
        arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args),
      })),
      ...options,
    };
  },
  error(status: number, options: Omit<FakeErrorResponse, 'kind' | 'status'> = {}): FakeErrorResponse {
    return { kind: 'error', status, ...options };
  },
  /** HTTP 429 with a Retry-After header. */
  rateLimited(retryAfterSeconds: number | string = 0): FakeErrorResponse {
    return { kind: 'error', status: 429, message: 'Rate limit reached for requests', retryAfter: retryAfterSeconds };
  },
  /** Text that streams for ever (the tokens repeated, paced), never finishing: a model that never stops. */
  endless(content: string | string[], options: Omit<FakeTextResponse, 'kind' | 'tokens' | 'endless'> = {}): FakeTextResponse {
    return { kind: 'text', tokens: Array.isArray(content) ? content : splitTokens(content), ...options, endless: true };
  },
  /** Never answers (not even headers): for timeouts. */
  hang(): FakeHangResponse {
    return { kind: 'hang' };
  },
  /** The same response `n` times, e.g. `enqueue(...reply.times(2, reply.error(500)), reply.text('ok'))`. */
  times<R extends FakeResponse>(n: number, response: R): R[] {
    return Array.from({ length: n }, () => response);
  },
};

// ---------------------------------------------------------------------------------------------
// Recorded requests
// ---------------------------------------------------------------------------------------------

export interface FakeMessage {
  role: string;
  /** Text content (content parts joined). */
  content: string;
  tool_calls?: { id: string; type: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
  /** The message as sent. */
  raw: Record<string, unknown>;
}

export interface FakeToolDef {
  name: string;
  description?: string;
  parameters?: unknown;
}

export interface FakeRequest {
  /** 1-based arrival order. */
  seq: number;
  method: string;
  path: string;
  /** The Authorization header as sent (tests check which key reached which endpoint). */
  authorization: string | undefined;
  model: string | undefined;
  messages: FakeMessage[];
  tools: FakeToolDef[];
  toolNames: string[];
  stream: boolean;
  /** The parsed JSON body (undefined for GET). */
  body: any;
  /** Date.now() when the request arrived. */
  receivedAt: number;
  /** The status the fake answered with, once it did. */
  status?: number;
  /** Unique per response (`chatcmpl-…`); set when a completion was played. */
  completionId?: string;
  /** Date.now() when the response finished (ended or broken by the fake). */
  finishedAt?: number;
  /** The client closed the connection before the response finished (an abort or a client timeout). */
  clientClosed: boolean;
  /** Date.now() when the client closed it. */
  clientClosedAt?: number;
  /** The fake broke the connection on purpose (`breakAfter`). */
  brokenByServer: boolean;
  /** All system messages' text, joined by newlines. */
  system: string;
  lastMessage: FakeMessage | undefined;
  /** The last message's text ('' when none). */
  lastContent: string;
}

/** Answers a request; `undefined` falls through to the server's default (an HTTP 400 naming the request). */
export type Responder = (request: FakeRequest) => FakeResponse | undefined | Promise<FakeResponse | undefined>;

export interface FakeOpenAIOptions {
  /** Default 0 (a free port). */
  port?: number;
  host?: string;
  /** Ids listed by `GET /v1/models` (and `GET /api/tags`, Ollama style). */
  models?: string[];
  responder?: Responder;
  /** Default pacing of every response; 0 = as fast as possible. */
  tokensPerSecond?: number;
  firstTokenDelayMs?: number;
  /** Keep request records (default true); a long benchmark may turn it off. */
  record?: boolean;
  /**
   * When set, this text inside a streamed frame is replaced, at the moment the frame is written, by
   * the send time (ms since the epoch, µs precision): a benchmark reads it back to measure the delay
   * the stack between the fake and the client adds to every token.
   */
  stampPlaceholder?: string;
}

export interface FakeOpenAI {
  /** Base URL for OpenAI clients, ending in `/v1`. */
  readonly url: string;
  /** `http://host:port`, e.g. for Ollama's `/api/tags`. */
  readonly origin: string;
  /** Every request received, in arrival order. */
  readonly requests: FakeRequest[];
  /** Only the `POST …/chat/completions` requests. */
  completions(): FakeRequest[];
  /** Appends responses to the queue; the queue is used before the responder. */
  enqueue(...responses: (FakeResponse | FakeResponse[])[]): void;
  /** Sets (or clears) the responder used when the queue is empty. */
  script(responder: Responder | undefined): void;
  /** Responses still queued. */
  pending(): number;
  setModels(models: string[]): void;
  /** Clears the queue, the responder and the recorded requests (numbering restarts at 1). */
  reset(): void;
  /** Resolves when `condition()` holds; rejects after `timeoutMs`. */
  waitFor(condition: () => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------

export async function startFakeOpenAI(options: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  const queue: FakeResponse[] = [];
  const requests: FakeRequest[] = [];
  const live = new Set<() => void>();
  let responder = options.responder;
  let models = options.models ?? [];
  let seq = 0;
  const record = options.record ?? true;
  const stamp = options.stampPlaceholder;
  const defaults = { tokensPerSecond: options.tokensPerSecond ?? 0, firstTokenDelayMs: options.firstTokenDelayMs ?? 0 };

  const server = http.createServer((req, res) => {
    req.socket.setNoDelay(true);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec = recordRequest(++seq, req, chunks.length ? Buffer.concat(chunks).toString('utf8') : '');
      if (record) requests.push(rec);
      res.on('close', () => {
        if (!res.writableFinished && !rec.brokenByServer) {
          rec.clientClosed = true;
          rec.clientClosedAt = Date.now();
        }
      });
      route(rec, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, rec, 500, { error: { message: `fake-openai: ${String(error)}` } });
        else res.destroy();
      });
    });
  });

  async function route(rec: FakeRequest, res: http.ServerResponse): Promise<void> {
    const path = rec.path.replace(/\/+$/, '');
    if (rec.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      const created = Math.floor(Date.now() / 1000);
      return sendJson(res, rec, 200, { object: 'list', data: models.map((id) => ({ id, object: 'model', created, owned_by: 'fake' })) });
    }
    if (rec.method === 'GET' && path === '/api/tags') {
      return sendJson(res, rec, 200, { models: models.map((name) => ({ name, model: name, modified_at: new Date().toISOString(), size: 0 })) });
    }
    if (rec.method === 'POST' && path.endsWith('/chat/completions')) {
      if (rec.body === undefined) return sendJson(res, rec, 400, { error: { message: 'fake-openai: the body is not JSON' } });
      const response = queue.shift() ?? (await responder?.(rec));
      if (!response) {
        // 400 is not retried by clients, so a test missing a script fails at once and says why.
        return sendJson(res, rec, 400, {
          error: { message: `fake-openai: no response scripted for request #${rec.seq} (model ${rec.model}: "${rec.lastContent.slice(0, 80)}")` },
        });
      }
      return play(rec, res, response);
    }
    sendJson(res, rec, 404, { error: { message: `fake-openai: no route ${rec.method} ${rec.path}` } });
  }

  function play(rec: FakeRequest, res: http.ServerResponse, response: FakeResponse): void {
    switch (response.kind) {
      case 'hang':
        // Keep the socket open without a byte; close() destroys it.
        return keepOpen(res);
      case 'error': {
        const headers: Record<string, string> = {};
        if (response.retryAfter !== undefined) headers['retry-after'] = String(response.retryAfter);
        const body = response.body ?? {
          error: { message: response.message ?? `fake-openai: scripted HTTP ${response.status}`, type: 'server_error', code: null },
        };
        return sendJson(res, rec, response.status, body, headers);
      }
      case 'text':
      case 'tool_calls': {
        const completionId = `chatcmpl-${uniqueSuffix()}`;
        rec.completionId = completionId;
        const completion = buildCompletion(rec, response);
        const pacing = {
          interval: rate(response.tokensPerSecond ?? defaults.tokensPerSecond),
          firstDelay: response.firstTokenDelayMs ?? defaults.firstTokenDelayMs,
        };
        const playing: Playing = { rec, res, id: completionId, completion, faults: response, pacing };
        return rec.stream ? streamCompletion(playing) : answerCompletion(playing);
      }
    }
  }

  function streamCompletion({ rec, res, id, completion, faults, pacing }: Playing): void {
    const created = Math.floor(Date.now() / 1000);
    const model = rec.model ?? 'fake';
    const frame = (choices: unknown[], extra?: Record<string, unknown>) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, system_fingerprint: null, choices, ...extra })}\n\n`;
    const delta = (d: Record<string, unknown>, finish: string | null = null) => frame([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

    const head = delta({ role: 'assistant', content: '' });
    const frames = completion.deltas.map((d) => delta(d));
    let tail = delta({}, completion.finishReason);
    const wantsUsage = rec.body?.stream_options?.include_usage === true;
    if (wantsUsage && completion.usage) tail += frame([], { usage: completion.usage });
    tail += 'data: [DONE]\n\n';

    rec.status = 200;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.write(head);

    const endless = faults.endless === true && frames.length > 0;
    const limit = endless ? Infinity : Math.min(frames.length, faults.breakAfter ?? Infinity, faults.stallAfter ?? Infinity);
    const frameAt = (i: number) => frames[i % frames.length];
    const start = performance.now() + pacing.firstDelay;
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const untrack = track(res, () => clearTimeout(timer));

    const tick = () => {
      timer = undefined;
      if (res.destroyed) return;
      // Write every frame that is due in one write: cheap when many streams share the event loop.
      const now = performance.now();
      // Unpaced and endless: one round of the tokens per tick, so the event loop keeps turning.
      const unpaced = endless ? sent + frames.length : limit;
      let due = pacing.interval === 0 ? unpaced : Math.min(limit, Math.floor((now - start) / pacing.interval) + 1);
      if (now < start) due = 0;
      if (due > sent) {
        const text = endless ? Array.from({ length: due - sent }, (_, i) => frameAt(sent + i)).join('') : frames.slice(sent, due).join('');
        res.write(stamp ? text.replaceAll(stamp, (performance.timeOrigin + performance.now()).toFixed(3)) : text);
        sent = due;
      }
      if (sent < limit) {
        timer = setTimeout(tick, Math.max(0, start + sent * pacing.interval - now));
        return;
      }
      if (limit === frames.length) {
        res.end(tail);
        rec.finishedAt = Date.now();
        untrack();
      } else if (faults.breakAfter !== undefined && sent >= faults.breakAfter) {
        rec.brokenByServer = true;
        rec.finishedAt = Date.now();
        untrack();
        // end() flushes what was written, then closes: the client sees a body cut short.
        res.socket?.end();
      }
      // else: stalled, the connection stays open until the client or close() ends it.
    };
    if (pacing.firstDelay > 0) timer = setTimeout(tick, pacing.firstDelay);
    else tick();
  }

  function answerCompletion({ rec, res, id, completion, faults, pacing }: Playing): void {
    const delay = pacing.firstDelay + pacing.interval * completion.deltas.length;
    const timer = setTimeout(() => {
      untrack();
      if (res.destroyed) return;
      if (faults.stallAfter !== undefined) return keepOpen(res);
      if (faults.breakAfter !== undefined) {
        rec.brokenByServer = true;
        rec.finishedAt = Date.now();
        res.socket?.end();
        return;
      }
      sendJson(res, rec, 200, {
        id,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: rec.model ?? 'fake',
        system_fingerprint: null,
        choices: [{ index: 0, message: completion.message, logprobs: null, finish_reason: completion.finishReason }],
        ...(completion.usage ? { usage: completion.usage } : {}),
      });
    }, delay);
    const untrack = track(res, () => clearTimeout(timer));
  }

  function keepOpen(res: http.ServerResponse): void {
    track(res, () => {});
  }

  /**
   * Counts a response as live until it ends: `close()` destroys it. `cancel` (its pending timer) runs when the
   * fake or the client ends it. Returns what takes it off the list once the fake has finished it on purpose.
   */
  function track(res: http.ServerResponse, cancel: () => void): () => void {
    const stop = () => {
      cancel();
      live.delete(stop);
      res.destroy();
    };
    live.add(stop);
    res.on('close', () => {
      cancel();
      live.delete(stop);
    });
    return () => live.delete(stop);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;

  return {
    url: `${origin}/v1`,
    origin,
    requests,
    completions: () => requests.filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions')),
    enqueue: (...responses) => {
      queue.push(...responses.flat());
    },
    script: (fn) => {
      responder = fn;
    },
    pending: () => queue.length,
    setModels: (ids) => {
      models = [...ids];
    },
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      responder = undefined;
      seq = 0;
    },
    waitFor: (condition, timeoutMs = 5000) => waitFor(condition, timeoutMs),
    close: async () => {
      for (const stop of [...live]) stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A TCP server that accepts connections and never answers: a model server that is up but stuck. */
export async function startSilentServer(): Promise<{ url: string; origin: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/v1`,
    origin,
    connections: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/** A completion being written to its client, streamed or as one JSON body. */
interface Playing {
  rec: FakeRequest;
  res: http.ServerResponse;
  id: string;
  completion: Completion;
  faults: StreamFaults;
  pacing: { interval: number; firstDelay: number };
}

interface Completion {
  /** Deltas after the role delta, one per token or argument piece. */
  deltas: Record<string, unknown>[];
  /** The whole message, for non-streamed answers. */
  message: Record<string, unknown>;
  finishReason: string;
  usage: Usage | undefined;
}

function buildCompletion(rec: FakeRequest, response: FakeTextResponse | FakeToolCallsResponse): Completion {
  const deltas: Record<string, unknown>[] = [];
  let message: Record<string, unknown>;
  let finishReason: string;
  if (response.kind === 'text') {
    for (const token of response.tokens) deltas.push({ content: token });
    message = { role: 'assistant', content: response.tokens.join(''), refusal: null };
    finishReason = response.finishReason ?? 'stop';
  } else {
    const contentTokens = response.content ? splitTokens(response.content) : [];
    for (const token of contentTokens) deltas.push({ content: token });
    const size = Math.max(1, response.argsChunkSize ?? 8);
    response.calls.forEach((call, index) => {
      // OpenAI's shape: id, type and name in the first delta of a call, then the arguments in pieces.
      deltas.push({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] });
      for (let i = 0; i < call.arguments.length; i += size) {
        deltas.push({ tool_calls: [{ index, function: { arguments: call.arguments.slice(i, i + size) } }] });
      }
    });
    message = {
      role: 'assistant',
      content: response.content ?? null,
      refusal: null,
      tool_calls: response.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.arguments } })),
    };
    finishReason = response.finishReason ?? 'tool_calls';
  }
  let usage: Usage | undefined;
  if (response.usage !== false) {
    // A rough count (4 characters a token) is enough for code that only sums or displays usage.
    const prompt = Math.ceil(JSON.stringify(rec.body?.messages ?? []).length / 4);
    const completionTokens = deltas.length;
    usage = { prompt_tokens: prompt, completion_tokens: completionTokens, total_tokens: prompt + completionTokens, ...response.usage };
    if (response.usage?.total_tokens === undefined) usage.total_tokens = usage.prompt_tokens + usage.completion_tokens;
  }
  return { deltas, message, finishReason, usage };
}

function recordRequest(seq: number, req: http.IncomingMessage, text: string): FakeRequest {
  let body: any;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  const messages: FakeMessage[] = Array.isArray(body?.messages)
    ? body.messages.map((m: Record<string, unknown>) => ({
        role: String(m.role),
        content: contentText(m.content),
        ...(m.tool_calls ? { tool_calls: m.tool_calls as FakeMessage['tool_calls'] } : {}),
        ...(m.tool_call_id ? { tool_call_id: String(m.tool_call_id) } : {}),
        raw: m,
      }))
    : [];
  const tools: FakeToolDef[] = Array.isArray(body?.tools)
    ? body.tools.map((t: any) => ({ name: t?.function?.name ?? t?.name, description: t?.function?.description, parameters: t?.function?.parameters }))
    : [];
  const lastMessage = messages.at(-1);
  return {
    seq,
    method: req.method ?? 'GET',
    path: (req.url ?? '/').split('?')[0]!,
    authorization: req.headers.authorization,
    model: typeof body?.model === 'string' ? body.model : undefined,
    messages,
    tools,
    toolNames: tools.map((t) => t.name),
    stream: body?.stream === true,
    body,
    receivedAt: Date.now(),
    clientClosed: false,
    brokenByServer: false,
    system: messages
      .filter((m) => m.role === 'system' || m.role === 'developer')
      .map((m) => m.content)
      .join('\n'),
    lastMessage,
    lastContent: lastMessage?.content ?? '',
  };
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content.map((p) => (typeof p === 'string' ? p : typeof p?.text === 'string' ? p.text : '')).join('');
  }
  return '';
}

function sendJson(res: http.ServerResponse, rec: FakeRequest, status: number, body: unknown, headers: Record<string, string> = {}): void {
  rec.status = status;
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text, () => {
    rec.finishedAt = Date.now();
  });
}

function rate(tokensPerSecond: number): number {
  return tokensPerSecond > 0 ? 1000 / tokensPerSecond : 0;
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`fake-openai: condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
