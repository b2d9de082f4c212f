import type { Connection } from '@aigis/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ApiError } from '../../lib/api-error';
import { connectionsApi } from './connections-api';

interface ConnectionsValue {
  connections: Connection[];
  loading: boolean;
  error: ApiError | null;
  refresh(): Promise<void>;
  upsertLocal(c: Connection): void;
  removeLocal(id: string): void;
}

const ConnectionsContext = createContext<ConnectionsValue | null>(null);

export function ConnectionsProvider({ children }: { children: ReactNode }) {
  const [connections, setConnections] = useState<Connection[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<ApiError | null>(null);

  const refresh = useCallback(async () => {
    try {
      setConnections(await connectionsApi.list());
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

  const value = useMemo<ConnectionsValue>(
    () => ({
      connections,
      loading,
      error,
      refresh,
      upsertLocal(c) {
        setConnections((list) => (list.some((x) => x.id === c.id) ? list.map((x) => (x.id === c.id ? c : x)) : [...list, c]));
      },
      removeLocal(id) {
        setConnections((list) => list.filter((x) => x.id !== id));
      },
    }),
    [connections, loading, error, refresh],
  );
  return <ConnectionsContext.Provider value={value}>{children}</ConnectionsContext.Provider>;
}

export function useConnections(): ConnectionsValue {
  const value = useContext(ConnectionsContext);
  if (!value) throw new Error('useConnections outside ConnectionsProvider');
  return value;
}
