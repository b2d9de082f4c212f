import type { Connection } from '@aigis/contracts';
import { useCallback, useState } from 'react';
import { navigate } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { pendingMessage } from '../../lib/pending-message';
import { useConnections } from '../connections/connections-context';
import { defaultModel, useModels } from '../models/models-context';
import { useThreads } from './threads-context';

/** The database a new thread starts with: the last one used, else the demo, else the first. */
function defaultConnection(connections: Connection[], lastUsed: string | null | undefined): string | undefined {
  if (lastUsed && connections.some((c) => c.id === lastUsed)) return lastUsed;
  return (connections.find((c) => c.is_demo) ?? connections[0])?.id;
}

export function useNewThread() {
  const threads = useThreads();
  const { models } = useModels();
  const { connections } = useConnections();
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  const create = useCallback(
    async (firstMessage?: string) => {
      setCreating(true);
      setError(null);
      try {
        const lastUsed = threads.threads[0]?.connection_id;
        const thread = await threads.create({
          model: defaultModel(models),
          connection_id: defaultConnection(connections, lastUsed),
        });
        if (firstMessage) pendingMessage.set(thread.thread_id, firstMessage);
        navigate(paths.thread(thread.thread_id));
        return thread;
      } catch (err) {
        setError(ApiError.from(err));
        return null;
      } finally {
        setCreating(false);
      }
    },
    [threads, models, connections],
  );

  return { create, creating, error };
}
