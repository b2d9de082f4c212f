import type { CreateThreadRequest, ThreadDetail, ThreadSummary, UpdateThreadRequest } from '@aigis/contracts';
import { api } from '../../lib/api-client';

export const threadsApi = {
  list: () => api.get<ThreadSummary[]>('/chat'),
  get: (id: string, signal?: AbortSignal) => api.get<ThreadDetail>(`/chat/${encodeURIComponent(id)}`, signal),
  create: (body: CreateThreadRequest) => api.post<ThreadSummary>('/chat', body),
  rename: (id: string, title: string) => api.patch<ThreadSummary>(`/chat/${encodeURIComponent(id)}`, { title } satisfies UpdateThreadRequest),
  remove: (id: string) => api.delete(`/chat/${encodeURIComponent(id)}`),
};
