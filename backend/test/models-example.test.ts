import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadModelsConfig } from '../src/llm/models-config.js';
import { REPO_ROOT } from '@aigis/test-support/env';

describe('models.example.json', () => {
  it('is a valid MODELS_CONFIG file', () => {
    const entries = loadModelsConfig(path.join(REPO_ROOT, 'models.example.json'));
    expect(entries.map((e) => e.name)).toEqual(['llama-3.3-70b', 'claude-via-openrouter', 'local-vllm']);
    expect(entries[0].api_key_env).toBe('GROQ_API_KEY');
  });
});
