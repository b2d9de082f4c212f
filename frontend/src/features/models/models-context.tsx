import type { ModelInfo, ProviderSetup } from '@aigis/contracts';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { ApiError } from '../../lib/api-error';
import { useRemote } from '../../lib/use-remote';
import { modelsApi } from './models-api';

interface ModelsValue {
  models: ModelInfo[];
  providers: ProviderSetup[];
  loading: boolean;
  error: ApiError | null;
  /** True once loaded and no model can answer: the app explains how to enable one. */
  noneAvailable: boolean;
  refresh(): Promise<void>;
}

const ModelsContext = createContext<ModelsValue | null>(null);

/** The provider list only explains how to enable models; without it the picker still works. */
async function loadModels() {
  const [models, providers] = await Promise.all([modelsApi.list(), modelsApi.providers().catch(() => [] as ProviderSetup[])]);
  return { models, providers };
}

export function ModelsProvider({ children }: { children: ReactNode }) {
  const { data, loading, error, refresh } = useRemote(loadModels, { models: [] as ModelInfo[], providers: [] as ProviderSetup[] });
  const { models, providers } = data;

  const value = useMemo<ModelsValue>(
    () => ({
      models,
      providers,
      loading,
      error,
      noneAvailable: !loading && !error && !models.some((m) => m.available),
      refresh,
    }),
    [models, providers, loading, error, refresh],
  );
  return <ModelsContext.Provider value={value}>{children}</ModelsContext.Provider>;
}

export function useModels(): ModelsValue {
  const value = useContext(ModelsContext);
  if (!value) throw new Error('useModels outside ModelsProvider');
  return value;
}

/** The model a new thread starts with: the last one picked if still available, else the first available. */
export function defaultModel(models: ModelInfo[]): string | undefined {
  const last = localStorage.getItem('aigis.lastModel');
  if (last && models.some((m) => m.name === last && m.available)) return last;
  return models.find((m) => m.available)?.name;
}

export function rememberModel(name: string): void {
  try {
    localStorage.setItem('aigis.lastModel', name);
  } catch {
    // Only a convenience.
  }
}
