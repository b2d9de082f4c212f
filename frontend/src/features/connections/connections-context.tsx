import type { Connection } from '@aigis/contracts';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { ApiError } from '../../lib/api-error';
import { useRemote } from '../../lib/use-remote';
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
  const { data: connections, setData: setConnections, loading, error, refresh } = useRemote(connectionsApi.list, [] as Connection[]);

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
    [connections, loading, error, refresh, setConnections],
  );
  return <ConnectionsContext.Provider value={value}>{children}</ConnectionsContext.Provider>;
}

export function useConnections(): ConnectionsValue {
  const value = useContext(ConnectionsContext);
  if (!value) throw new Error('useConnections outside ConnectionsProvider');
  return value;
}
