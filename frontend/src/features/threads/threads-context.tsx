import type { ThreadSummary } from '@aigis/contracts';
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { ApiError } from '../../lib/api-error';
import { useRemote } from '../../lib/use-remote';
import { threadsApi } from './threads-api';

interface ThreadsValue {
  threads: ThreadSummary[];
  loading: boolean;
  error: ApiError | null;
  refresh(): Promise<void>;
  create(body: { model?: string; connection_id?: string }): Promise<ThreadSummary>;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** Updates one thread locally (model or connection switched) without a round trip. */
  patchLocal(id: string, patch: Partial<ThreadSummary>): void;
}

const ThreadsContext = createContext<ThreadsValue | null>(null);

const loadThreads = async () => byNewest(await threadsApi.list());

/** Newest activity first, whatever order the list was assembled in locally. */
function byNewest(threads: ThreadSummary[]): ThreadSummary[] {
  return threads.slice().sort((a, b) => (b.updated_at ?? '').localeCompare(a.updated_at ?? ''));
}

export function ThreadsProvider({ children }: { children: ReactNode }) {
  const { data: threads, setData: setThreads, loading, error, refresh } = useRemote(loadThreads, [] as ThreadSummary[]);

  const value = useMemo<ThreadsValue>(
    () => ({
      threads,
      loading,
      error,
      refresh,
      async create(body) {
        const thread = await threadsApi.create(body);
        setThreads((list) => byNewest([thread, ...list.filter((t) => t.thread_id !== thread.thread_id)]));
        return thread;
      },
      async rename(id, title) {
        const updated = await threadsApi.rename(id, title);
        setThreads((list) => list.map((t) => (t.thread_id === id ? { ...t, ...(updated ?? { title }) } : t)));
      },
      async remove(id) {
        await threadsApi.remove(id);
        setThreads((list) => list.filter((t) => t.thread_id !== id));
      },
      patchLocal(id, patch) {
        setThreads((list) => list.map((t) => (t.thread_id === id ? { ...t, ...patch } : t)));
      },
    }),
    [threads, loading, error, refresh, setThreads],
  );

  return <ThreadsContext.Provider value={value}>{children}</ThreadsContext.Provider>;
}

export function useThreads(): ThreadsValue {
  const value = useContext(ThreadsContext);
  if (!value) throw new Error('useThreads outside ThreadsProvider');
  return value;
}
