import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/env.schema.js';
import { buildModelView, type ProbeSnapshot } from './model-view.js';
import { createProviders } from './providers/provider-factories.js';
import type { ModelProvider } from './providers/provider.js';

// The real providers, LM Studio configured (its server is never asked: each case gives the answer it had).
const sources = createProviders(loadConfig({ LM_STUDIO_ENDPOINT: 'http://127.0.0.1:9/v1', DEEPSEEK_API_KEY: 'sk-x' }), {});
const lmStudio = sources.find((s) => s.id === 'lmstudio')!;
const view = (answer: ProbeSnapshot) => buildModelView(sources, (source: ModelProvider) => (source === lmStudio ? answer : undefined));

describe('buildModelView', () => {
  it('lists a served model under its provider prefix when another model has its name, and skips embedding models', () => {
    const { entries, index } = view({ outcome: { ok: true, models: ['deepseek-chat', 'mistral-7b', 'nomic-embed-text'] }, listed: ['deepseek-chat', 'mistral-7b', 'nomic-embed-text'] });
    const lm = entries.filter((e) => e.provider === lmStudio).map((e) => [e.info.name, e.status]);
    expect(lm).toEqual([
      ['gpt-oss-20b', 'unavailable'],
      ['qwen3-8b', 'unavailable'],
      ['lmstudio/deepseek-chat', 'available'],
      ['mistral-7b', 'available'],
    ]);
    // The name keeps meaning the catalog model; the upstream id does not take it over either.
    expect(index.get('deepseek-chat')?.info.provider).toBe('deepseek');
    expect(index.get('lmstudio/deepseek-chat')?.spec.model_id).toBe('deepseek-chat');
  });

  it("says a model is being checked until its server's first answer, and keeps listed models while it is down", () => {
    const checking = view({ listed: [] }).entries.find((e) => e.info.name === 'qwen3-8b')!;
    expect(checking.status).toBe('checking');
    expect(checking.info.reason).toMatch(/^checking LM Studio at /);

    const down = view({ outcome: { ok: false, reason: 'LM Studio did not answer' }, listed: ['mistral-7b'] });
    expect(down.index.get('mistral-7b')?.info).toMatchObject({ available: false, reason: 'LM Studio did not answer' });
  });
});
