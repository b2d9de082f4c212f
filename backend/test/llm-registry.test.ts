import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/common/app-error.js';
import { ConfigError, loadConfig } from '../src/config/env.schema.js';
import { ModelRegistry } from '../src/llm/model-registry.js';
import { reply, startFakeOpenAI, startSilentServer, type FakeOpenAI } from '@aigis/test-support/fake-openai';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-llm-'));
let fileCount = 0;
/** Writes a MODELS_CONFIG file and returns its path. */
function modelsFile(content: unknown): string {
  const file = path.join(tmp, `models-${++fileCount}.json`);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const registries: ModelRegistry[] = [];
function registry(env: Record<string, string> = {}, processEnv: NodeJS.ProcessEnv = {}): ModelRegistry {
  const r = new ModelRegistry(loadConfig({ MODEL_PROBE_TIMEOUT_MS: '1000', ...env }), processEnv);
  registries.push(r);
  return r;
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

afterEach(() => {
  for (const r of registries.splice(0)) r.onModuleDestroy();
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('ModelRegistry with nothing configured', () => {
  it('lists every built-in model as unavailable, with the variable that enables it', () => {
    const models = registry().list();
    const byName = Object.fromEntries(models.map((m) => [m.name, m]));
    expect(byName['gpt-oss-20b']).toMatchObject({
      provider: 'lmstudio',
      model_id: 'openai/gpt-oss-20b',
      available: false,
      reason: 'LM_STUDIO_ENDPOINT is not set',
      aliases: ['gpt_oss', 'gpt-oss'],
      capabilities: { tool_calling: true },
    });
    expect(byName['qwen3-8b']).toMatchObject({ model_id: 'qwen/qwen3-8b', available: false, reason: 'LM_STUDIO_ENDPOINT is not set', aliases: ['qwen'] });
    expect(byName['deepseek-chat']).toMatchObject({ available: false, reason: 'DEEPSEEK_API_KEY is not set', aliases: ['deepseek'] });
    expect(byName['deepseek-reasoner']).toMatchObject({ available: false, capabilities: { tool_calling: false } });
    expect(byName['gpt-4o-mini']).toMatchObject({ provider: 'openai', reason: 'OPENAI_API_KEY is not set' });
    expect(byName['claude-sonnet-4-5']).toMatchObject({ provider: 'anthropic', reason: 'ANTHROPIC_API_KEY is not set' });
    expect(models.every((m) => !m.available)).toBe(true);
  });

  it('says which variable enables which provider when there is no model', () => {
    const r = registry();
    expect(r.defaultModel()).toBeNull();
    const error = caught(() => r.modelForThread(null)) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('NO_MODEL');
    for (const variable of ['LM_STUDIO_ENDPOINT', 'DEEPSEEK_API_KEY', 'OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'OLLAMA_BASE_URL', 'MODELS_CONFIG']) {
      expect(error.message).toContain(variable);
    }
    expect(r.providers().map((p) => [p.provider, p.configured])).toEqual([
      ['lmstudio', false],
      ['deepseek', false],
      ['openai', false],
      ['anthropic', false],
      ['ollama', false],
      ['openai-compatible', false],
    ]);
    expect(r.providers().find((p) => p.provider === 'deepseek')!.env).toContain('DEEPSEEK_API_KEY');
  });

  it('refuses a chat model for an unconfigured provider, naming the variable', () => {
    const error = caught(() => registry().chatModel('qwen')) as AppError;
    expect(error.code).toBe('MODEL_UNAVAILABLE');
    expect(error.message).toContain('qwen3-8b');
    expect(error.message).toContain('LM_STUDIO_ENDPOINT is not set');
  });
});

describe('ModelRegistry names', () => {
  it.each([
    ['qwen', 'qwen3-8b'],
    ['gpt_oss', 'gpt-oss-20b'],
    ['gpt-oss', 'gpt-oss-20b'],
    ['deepseek', 'deepseek-chat'],
    ['qwen3-8b', 'qwen3-8b'],
    ['gpt-oss-20b', 'gpt-oss-20b'],
    ['deepseek-reasoner', 'deepseek-reasoner'],
    ['openai/gpt-oss-20b', 'gpt-oss-20b'],
    ['qwen/qwen3-8b', 'qwen3-8b'],
    ['QWEN', 'qwen3-8b'],
    ['GPT_OSS', 'gpt-oss-20b'],
    ['DeepSeek', 'deepseek-chat'],
    [' Qwen/Qwen3-8B ', 'qwen3-8b'],
  ])('resolves %j to %s', (input, name) => {
    expect(registry().resolve(input).name).toBe(name);
  });

  it('answers an unknown name with UNKNOWN_MODEL (HTTP 400) listing the valid names', () => {
    const error = caught(() => registry().resolve('gpt-5-ultra')) as AppError;
    expect(error).toBeInstanceOf(AppError);
    expect(error.code).toBe('UNKNOWN_MODEL');
    expect(error.status).toBe(400);
    expect(error.message).toContain('"gpt-5-ultra"');
    for (const name of ['gpt-oss-20b', 'qwen3-8b', 'deepseek-chat', 'deepseek-reasoner', 'gpt-4o-mini']) expect(error.message).toContain(name);
    expect(error.message).toContain('qwen→qwen3-8b');
    expect((error.details as { valid: string[] }).valid).toContain('qwen3-8b');
  });
});

describe('ModelRegistry availability', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterEach(() => fake.reset());
  afterAll(() => fake.close());

  it('never waits on a dead LM Studio, reports it with a reason, and keeps the other endpoint usable', async () => {
    const silent = await startSilentServer();
    try {
      fake.setModels(['served-model']);
      const config = modelsFile({ models: [{ name: 'extra', base_url: fake.url, model: 'served-model', aliases: ['x1'] }] });
      const r = registry({ LM_STUDIO_ENDPOINT: silent.url, MODELS_CONFIG: config, MODEL_PROBE_TIMEOUT_MS: '2000' });

      // Far below the 2 s probe timeout (the bound leaves room for a loaded machine).
      const started = performance.now();
      const first = r.list();
      expect(performance.now() - started).toBeLessThan(200);
      expect(first.find((m) => m.name === 'qwen3-8b')!.reason).toMatch(/^checking LM Studio/);

      // The working endpoint is usable long before the dead one's probe times out.
      const extraReady = await waitUntil(() => r.list().find((m) => m.name === 'extra')!.available, 1000);
      expect(extraReady).toBeLessThan(1000);
      expect(r.list().find((m) => m.name === 'qwen3-8b')!.available).toBe(false);
      expect(silent.connections()).toBeGreaterThan(0);

      await waitUntil(() => !r.list().find((m) => m.name === 'qwen3-8b')!.reason!.startsWith('checking'), 4000);
      const t = performance.now();
      const models = r.list();
      expect(performance.now() - t).toBeLessThan(200);
      for (const name of ['qwen3-8b', 'gpt-oss-20b']) {
        expect(models.find((m) => m.name === name)).toMatchObject({
          available: false,
          reason: `LM Studio at ${silent.url} did not answer within 2 s`,
        });
      }
      expect(models.find((m) => m.name === 'extra')).toMatchObject({ available: true, provider: 'openai-compatible', model_id: 'served-model', aliases: ['x1'] });
      expect(r.defaultModel()!.name).toBe('extra');

      const error = caught(() => r.chatModel('gpt_oss')) as AppError;
      expect(error.code).toBe('MODEL_UNAVAILABLE');
      expect(error.message).toContain('did not answer within 2 s');
      expect(error.message).toContain('Available models: extra');
    } finally {
      await silent.close();
    }
  });

  it('lists the models LM Studio serves, marks unlisted seeds unavailable and skips embedding models', async () => {
    fake.setModels(['qwen/qwen3-8b', 'mistralai/devstral-small-2505', 'text-embedding-nomic-embed-text-v1.5']);
    const r = registry({ LM_STUDIO_ENDPOINT: fake.url });
    await r.refresh();
    const models = r.list();
    expect(models.find((m) => m.name === 'qwen3-8b')).toMatchObject({ available: true, model_id: 'qwen/qwen3-8b' });
    expect(models.find((m) => m.name === 'gpt-oss-20b')).toMatchObject({ available: false, reason: `not listed by LM Studio at ${fake.url}` });
    expect(models.find((m) => m.name === 'mistralai/devstral-small-2505')).toMatchObject({
      provider: 'lmstudio',
      model_id: 'mistralai/devstral-small-2505',
      available: true,
    });
    expect(models.some((m) => m.name.includes('embed'))).toBe(false);
    expect(r.resolve('MistralAI/Devstral-Small-2505').name).toBe('mistralai/devstral-small-2505');
    expect(r.defaultModel()!.name).toBe('qwen3-8b');
    expect(fake.requests.map((q) => `${q.method} ${q.path}`)).toEqual(['GET /v1/models']);
  });

  it('matches a seed model that LM Studio spells without its publisher, and sends that id upstream', async () => {
    fake.setModels(['gpt-oss-20b']);
    fake.enqueue(reply.text('hi'));
    const r = registry({ LM_STUDIO_ENDPOINT: fake.origin }); // no /v1: the registry adds it
    await r.refresh();
    expect(r.resolve('gpt_oss')).toMatchObject({ name: 'gpt-oss-20b', model_id: 'gpt-oss-20b', available: true });
    await r.chatModel('gpt_oss').invoke('hello');
    expect(fake.completions()[0]!.model).toBe('gpt-oss-20b');
  });

  it('revalidates in the background after the TTL and answers from the cache meanwhile', async () => {
    fake.setModels(['qwen/qwen3-8b']);
    const r = registry({ LM_STUDIO_ENDPOINT: fake.url, MODEL_PROBE_TTL_S: '1' });
    await r.refresh();
    fake.setModels(['qwen/qwen3-8b', 'new-model']);
    expect(r.list().some((m) => m.name === 'new-model')).toBe(false);
    expect(fake.requests).toHaveLength(1); // still fresh: no probe
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(r.list().some((m) => m.name === 'new-model')).toBe(false); // stale answer at once…
    await waitUntil(() => r.list().some((m) => m.name === 'new-model'), 1000); // …fresh one soon after
    expect(fake.requests).toHaveLength(2);
  });

  it('keeps models a server listed, as unavailable, while it is down', async () => {
    const other = await startFakeOpenAI({ models: ['qwen/qwen3-8b', 'local-model'] });
    const r = registry({ LM_STUDIO_ENDPOINT: other.url });
    await r.refresh();
    expect(r.resolve('local-model').available).toBe(true);
    await other.close();
    await r.refresh();
    expect(r.resolve('local-model')).toMatchObject({ available: false, reason: expect.stringMatching(/^LM Studio at .* refused the connection/) });
  });

  it('reads Ollama models from /api/tags and chats through its /v1', async () => {
    fake.setModels(['llama3.1:8b', 'nomic-embed-text:latest']);
    fake.enqueue(reply.text('from ollama'));
    const r = registry({ OLLAMA_BASE_URL: fake.origin });
    await r.refresh();
    expect(r.resolve('llama3.1:8b')).toMatchObject({ provider: 'ollama', available: true });
    expect(r.list().some((m) => m.name.startsWith('nomic'))).toBe(false);
    const answer = await r.chatModel('llama3.1:8b').invoke('hi');
    expect(answer.content).toBe('from ollama');
    expect(fake.requests.map((q) => `${q.method} ${q.path} ${q.model ?? ''}`.trim())).toEqual([
      'GET /api/tags',
      'POST /v1/chat/completions llama3.1:8b',
    ]);
  });

  it('key-based providers are available when their key is set, without any request', () => {
    const r = registry({ DEEPSEEK_API_KEY: 'dk-test', ANTHROPIC_API_KEY: 'ak-test' });
    expect(r.resolve('deepseek')).toMatchObject({ name: 'deepseek-chat', available: true });
    expect(r.resolve('claude-haiku-4-5').available).toBe(true);
    expect(r.resolve('gpt-4o').available).toBe(false);
    expect(r.providers().filter((p) => p.configured).map((p) => p.provider)).toEqual(['deepseek', 'anthropic']);
    expect(r.chatModel('claude-haiku-4-5')._llmType()).toBe('anthropic');
    expect(r.chatModel('deepseek-reasoner')._llmType()).toBe('openai');
  });
});

describe('ModelRegistry default model', () => {
  it('uses DEFAULT_MODEL (by alias too) when it is available, else the first available tool-calling model', () => {
    expect(registry({ DEEPSEEK_API_KEY: 'k', DEFAULT_MODEL: 'deepseek-reasoner' }).defaultModel()!.name).toBe('deepseek-reasoner');
    expect(registry({ DEEPSEEK_API_KEY: 'k', DEFAULT_MODEL: 'DEEPSEEK' }).defaultModel()!.name).toBe('deepseek-chat');
    // qwen is not available (LM Studio unset) and "nope" does not exist: both fall back.
    expect(registry({ DEEPSEEK_API_KEY: 'k', DEFAULT_MODEL: 'qwen' }).defaultModel()!.name).toBe('deepseek-chat');
    expect(registry({ DEEPSEEK_API_KEY: 'k', DEFAULT_MODEL: 'nope' }).modelForThread(undefined).name).toBe('deepseek-chat');
  });

  it('skips models without tool calling when choosing a fallback', async () => {
    const fake = await startFakeOpenAI({ models: ['a', 'b'] });
    try {
      const file = modelsFile([
        { name: 'no-tools', base_url: fake.url, model: 'a', capabilities: { tool_calling: false } },
        { name: 'tools', base_url: fake.url, model: 'b' },
      ]);
      const r = registry({ MODELS_CONFIG: file });
      expect(r.defaultModel()).toBeNull(); // nothing is known to be available before the probe answers
      await r.refresh();
      expect(r.resolve('no-tools').available).toBe(true);
      expect(r.defaultModel()!.name).toBe('tools');
    } finally {
      await fake.close();
    }
  });

  it("uses the thread's model when it has one, and rejects a name that no longer exists", () => {
    const r = registry({ DEEPSEEK_API_KEY: 'k' });
    expect(r.modelForThread('deepseek-reasoner').name).toBe('deepseek-reasoner');
    expect((caught(() => r.modelForThread('gone')) as AppError).code).toBe('UNKNOWN_MODEL');
  });
});

describe('MODELS_CONFIG', () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await startFakeOpenAI({ models: ['m-1', 'm-2'] });
  });
  afterAll(() => fake.close());

  it('declares OpenAI-compatible models whose key comes from the variable it names', async () => {
    const file = modelsFile({
      models: [
        { name: 'groq-llama', base_url: fake.url, api_key_env: 'EXTRA_KEY', model: 'm-1', aliases: ['llama'], capabilities: { tool_calling: true, context_window: 8192 } },
        { name: 'second', base_url: `${fake.url}/`, api_key_env: 'EXTRA_KEY', model: 'm-2' },
        { name: 'absent', base_url: fake.url, api_key_env: 'EXTRA_KEY', model: 'not-served' },
      ],
    });
    const missing = registry({ MODELS_CONFIG: file });
    expect(missing.resolve('llama')).toMatchObject({ name: 'groq-llama', available: false, reason: 'EXTRA_KEY is not set' });
    expect(missing.providers().find((p) => p.provider === 'openai-compatible')).toMatchObject({ configured: false, env: ['MODELS_CONFIG', 'EXTRA_KEY'] });

    fake.reset();
    fake.enqueue(reply.text('ok'));
    const r = registry({ MODELS_CONFIG: file }, { EXTRA_KEY: 'extra-secret-1' });
    await r.refresh();
    expect(r.resolve('LLAMA')).toMatchObject({ available: true, model_id: 'm-1', capabilities: { tool_calling: true, context_window: 8192 } });
    expect(r.resolve('second')).toMatchObject({ available: true, capabilities: { tool_calling: true, context_window: null } });
    expect(r.resolve('absent')).toMatchObject({ available: false, reason: `not listed by the server at ${fake.url}` });
    await r.chatModel('llama').invoke('hi');
    // One probe for the shared endpoint, then the chat; both carry the named key.
    expect(fake.requests.map((q) => [q.path, q.model, q.authorization])).toEqual([
      ['/v1/models', undefined, 'Bearer extra-secret-1'],
      ['/v1/chat/completions', 'm-1', 'Bearer extra-secret-1'],
    ]);
  });

  it('never sends the OpenAI key to a server that has no key of its own', async () => {
    fake.reset();
    fake.enqueue(reply.text('ok'), reply.text('ok'));
    const file = modelsFile([{ name: 'keyless', base_url: fake.url, model: 'm-1' }]);
    const r = registry({ LM_STUDIO_ENDPOINT: fake.url, MODELS_CONFIG: file, OPENAI_API_KEY: 'sk-openai-secret' });
    await r.refresh();
    fake.setModels(['m-1', 'qwen/qwen3-8b']);
    await r.refresh();
    await r.chatModel('keyless').invoke('hi');
    await r.chatModel('qwen').invoke('hi');
    expect(fake.requests.every((q) => !q.authorization?.includes('sk-openai-secret'))).toBe(true);
  });

  it.each([
    ['a missing file', null, /MODELS_CONFIG \(.*missing\.json\): cannot read the file \(ENOENT\)/],
    ['invalid JSON', '{"models": [', /not valid JSON/],
    ['a bad URL', { models: [{ name: 'a', base_url: 'not a url', model: 'm' }] }, /models\[0\]\.base_url: must be an http\(s\) URL/],
    ['a key instead of a variable name', [{ name: 'a', base_url: 'http://h/v1', api_key_env: 'sk-live-123', model: 'm' }], /api_key_env: must be the NAME/],
    ['a misspelt field', [{ name: 'a', base_uri: 'http://h/v1', model: 'm' }], /models\[0\].*base_uri/],
    ['a missing model', [{ name: 'a', base_url: 'http://h/v1' }], /models\[0\]\.model/],
    ['a duplicate name', [{ name: 'a', base_url: 'http://h/v1', model: 'm' }, { name: 'A', base_url: 'http://h/v1', model: 'n' }], /"A" is already used by "a"/],
    ['an alias taken by a built-in model', [{ name: 'mine', base_url: 'http://h/v1', model: 'm', aliases: ['qwen'] }], /"qwen" of mine \(openai-compatible\) is already used by qwen3-8b/],
  ])('makes %s a clear boot error', (_label, content, message) => {
    const file = content === null ? path.join(tmp, 'missing.json') : modelsFile(content);
    const error = caught(() => registry({ MODELS_CONFIG: file }));
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toContain('sk-live-123');
  });
});

/** Polls `condition` until it holds; returns the milliseconds it took. */
async function waitUntil(condition: () => boolean, timeoutMs: number): Promise<number> {
  const started = performance.now();
  while (!condition()) {
    if (performance.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return performance.now() - started;
}
