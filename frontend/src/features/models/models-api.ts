import type { ModelInfo, ThreadModelResponse } from '@aigis/contracts';
import { api } from '../../lib/api-client';

/** `GET /api/models/providers`: which environment variables enable which provider. */
export interface ProviderStatus {
  provider: string;
  configured: boolean;
  env: string[];
  hint: string;
}

export const modelsApi = {
  list: () => api.get<ModelInfo[]>('/models'),
  providers: () => api.get<ProviderStatus[]>('/models/providers'),
  threadModel: (threadId: string) => api.get<ThreadModelResponse>(`/chat/${encodeURIComponent(threadId)}/model`),
  setThreadModel: (threadId: string, name: string) =>
    api.post<ThreadModelResponse>(`/chat/${encodeURIComponent(threadId)}/model`, { name }),
};
