import type { ModelInfo } from '@aigis/contracts';
import { AppError } from '../../src/common/app-error.js';
import type { ModelRegistry } from '../../src/llm/model-registry.js';

export function modelInfo(name: string, available: boolean, extra: Partial<ModelInfo> = {}): ModelInfo {
  return { name, provider: 'openai', model_id: name, available, aliases: [], capabilities: { tool_calling: true, context_window: 8192 }, ...(available ? {} : { reason: 'no API key' }), ...extra };
}

/** A fixed list of models: resolution by name or alias (case-insensitive) and the default, as the registry answers. */
export class FakeModelRegistry implements Pick<ModelRegistry, 'list' | 'resolve' | 'defaultModel' | 'noModelMessage'> {
  constructor(readonly models: ModelInfo[]) {}

  list(): ModelInfo[] {
    return this.models;
  }

  resolve(nameOrAlias: string): ModelInfo {
    const wanted = nameOrAlias.toLowerCase();
    const model = this.models.find((m) => m.name.toLowerCase() === wanted || m.aliases.some((a) => a.toLowerCase() === wanted));
    if (!model) throw new AppError('UNKNOWN_MODEL', `Unknown model "${nameOrAlias}".`);
    return model;
  }

  defaultModel(): ModelInfo | null {
    return this.models.find((m) => m.available && m.capabilities.tool_calling) ?? null;
  }

  noModelMessage(): string {
    return 'No model is configured.';
  }
}
