import type { ThreadDetail, ThreadSummary } from '@aigis/contracts';
import { api } from '../../lib/api-client';

export const threadsApi = {
  list: () => api.get<ThreadSummary[]>('/chat'),
  get: (id: string, signal?: AbortSignal) => api.get<ThreadDetail>(`/chat/${encodeURIComponent(id)}`, signal),
  create: (body: { model?: string; connection_id?: string; title?: string }) => api.post<ThreadSummary>('/chat', body),
  rename: (id: string, title: string) => api.patch<ThreadSummary>(`/chat/${encodeURIComponent(id)}`, { title }),
  remove: (id: string) => api.delete(`/chat/${encodeURIComponent(id)}`),
};
