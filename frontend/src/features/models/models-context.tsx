import type { ModelInfo } from '@aigis/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError } from '../../lib/api-error';
import { modelsApi, type ProviderStatus } from './models-api';

interface ModelsValue {
  models: ModelInfo[];
  providers: ProviderStatus[];
  loading: boolean;
  error: ApiError | null;
  /** True once loaded and no model can answer: the app explains how to enable one. */
  noneAvailable: boolean;
  refresh(): Promise<void>;
}

const ModelsContext = createContext<ModelsValue | null>(null);

export function ModelsProvider({ children }: { children: ReactNode }) {
  const [models, setModels] = useState<ModelInfo[]>([]);
  const [providers, setProviders] = useState<ProviderStatus[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);

  const refresh = useCallback(async () => {
    setLoading(true);
    try {
      const [m, p] = await Promise.all([modelsApi.list(), modelsApi.providers().catch(() => [] as ProviderStatus[])]);
      setModels(m);
      setProviders(p);
      setError(null);
    } catch (err) {
      setError(ApiError.from(err));
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void refresh();
  }, [refresh]);

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
