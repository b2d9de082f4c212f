import type { ConfirmRequest, MessageRequest, ReviewMode, SetConnectionRequest, ThreadConnectionResponse, ThreadSummary, UpdateThreadRequest } from '@aigis/contracts';
import { apiStream, api } from '../../lib/api-client';

export const chatApi = {
  setConnection: (threadId: string, connectionId: string) =>
    api.post<ThreadConnectionResponse>(`/chat/${encodeURIComponent(threadId)}/connection`, { connection_id: connectionId } satisfies SetConnectionRequest),
  /** Opens the answer stream; `signal` aborts it (Stop), which the server turns into aborting the run. */
  sendMessage: (threadId: string, content: string, signal: AbortSignal) =>
    apiStream(`/chat/${encodeURIComponent(threadId)}/message`, { content } satisfies MessageRequest, signal),
  /** Approves (maybe edited) or refuses the query waiting for review; the rest of the turn streams like a message. */
  confirm: (threadId: string, request: ConfirmRequest, signal: AbortSignal) => apiStream(`/chat/${encodeURIComponent(threadId)}/confirm`, request, signal),
  /** The thread's review mode; null follows the connection. */
  setReview: (threadId: string, review: ReviewMode | null) => api.patch<ThreadSummary>(`/chat/${encodeURIComponent(threadId)}`, { review } satisfies UpdateThreadRequest),
};
