import type { ModelInfo, ProviderSetup, SetModelRequest, ThreadModelResponse } from '@aigis/contracts';
import { api } from '../../lib/api-client';

export const modelsApi = {
  list: () => api.get<ModelInfo[]>('/models'),
  providers: () => api.get<ProviderSetup[]>('/models/providers'),
  threadModel: (threadId: string) => api.get<ThreadModelResponse>(`/chat/${encodeURIComponent(threadId)}/model`),
  setThreadModel: (threadId: string, name: string) =>
    api.post<ThreadModelResponse>(`/chat/${encodeURIComponent(threadId)}/model`, { name } satisfies SetModelRequest),
};
