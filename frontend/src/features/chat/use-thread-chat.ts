import type { ConfirmRequest, ThreadDetail } from '@aigis/contracts';
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { ApiError, isAbortError } from '../../lib/api-error';
import { readSseEvents } from '../../lib/sse-stream';
import { threadsApi } from '../threads/threads-api';
import { chatApi } from './chat-api';
import { type ChatAction, chatReducer, emptyChat, isStreaming } from './chat-state';

export type ThreadInfo = Omit<ThreadDetail, 'messages' | 'pending_review'>;

/**
 * One thread's conversation: loads it, sends messages and feeds the answer stream into the reducer.
 * Switching threads aborts a running stream; its late events never reach the new thread.
 */
export function useThreadChat(threadId: string, onTurnFinished: () => void) {
  const [state, dispatch] = useReducer(chatReducer, emptyChat);
  const [info, setInfo] = useState<ThreadInfo | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const controller = useRef<AbortController | null>(null);
  const generation = useRef(0);
  const streamingRef = useRef(false);
  const finished = useRef(onTurnFinished);
  // The callbacks below read the latest values; refs are written after rendering, never during it.
  useLayoutEffect(() => {
    streamingRef.current = isStreaming(state);
    finished.current = onTurnFinished;
  });

  const load = useCallback(async () => {
    const gen = ++generation.current;
    controller.current?.abort();
    controller.current = null;
    setLoading(true);
    setLoadError(null);
    try {
      const detail = await threadsApi.get(threadId);
      if (gen !== generation.current) return;
      const { messages, pending_review, ...summary } = detail;
      setInfo(summary);
      dispatch({ type: 'load', messages: messages ?? [], pendingReview: pending_review ?? null });
    } catch (err) {
      if (gen !== generation.current || isAbortError(err)) return;
      setLoadError(ApiError.from(err));
      setInfo(null);
      dispatch({ type: 'load', messages: [] });
    } finally {
      if (gen === generation.current) setLoading(false);
    }
  }, [threadId]);

  useEffect(() => {
    void load();
    return () => {
      // A counter, not an element: bumping whatever it holds now is the point (it supersedes every load in flight).
      // eslint-disable-next-line react-hooks/exhaustive-deps
      generation.current++;
      controller.current?.abort();
    };
  }, [load]);

  /** Starts a turn (`action`) and feeds the stream `open` answers into the reducer until `end` or `error`. */
  const runTurn = useCallback(
    async (action: ChatAction, open: (signal: AbortSignal) => Promise<Response>, abort = new AbortController()) => {
      const gen = generation.current;
      controller.current = abort;
      streamingRef.current = true;
      dispatch(action);
      const live = () => gen === generation.current && controller.current === abort;
      let closed = false;
      try {
        const res = await open(abort.signal);
        if (!res.body) throw new ApiError('STREAM_CLOSED', 'The server sent no answer stream.', res.status);
        for await (const event of readSseEvents(res.body)) {
          if (!live()) break;
          dispatch({ type: 'event', event });
          if (event.type === 'end' || event.type === 'error') {
            closed = true;
            break;
          }
        }
        if (!closed && live() && !abort.signal.aborted) {
          dispatch({ type: 'local_error', code: 'STREAM_CLOSED', message: 'The answer stopped before it was complete.' });
        }
      } catch (err) {
        // Stop already marked the turn; anything else is shown where it happened.
        if (!isAbortError(err) && live()) {
          const e = ApiError.from(err);
          dispatch({ type: 'local_error', code: e.code, message: e.message });
        }
      } finally {
        if (controller.current === abort) controller.current = null;
        if (gen === generation.current) finished.current();
      }
    },
    [],
  );

  const send = useCallback(
    async (content: string) => {
      if (streamingRef.current || !content.trim()) return;
      await runTurn({ type: 'start', turnId: `local-${Date.now().toString(36)}`, content }, (signal) => chatApi.sendMessage(threadId, content, signal));
    },
    [threadId, runTurn],
  );

  /**
   * The person's decision on the waiting query. A refused edit (400 SQL_REJECTED) or a stale proposal is thrown
   * before any turn starts, so the proposal stays on screen with the error.
   */
  const confirm = useCallback(
    async (request: ConfirmRequest) => {
      if (streamingRef.current) return;
      const abort = new AbortController();
      controller.current = abort;
      let res: Response;
      try {
        res = await chatApi.confirm(threadId, request, abort.signal);
      } finally {
        if (controller.current === abort) controller.current = null;
      }
      // Stop during the resumed turn aborts this request's body, and the server stops the run.
      await runTurn({ type: 'resume', turnId: `local-${Date.now().toString(36)}` }, async () => res, abort);
    },
    [threadId, runTurn],
  );

  const stop = useCallback(() => {
    if (!controller.current) return;
    dispatch({ type: 'abort' });
    controller.current.abort();
    controller.current = null;
  }, []);

  return { state, info, setInfo, loading, loadError, reload: load, send, confirm, stop, streaming: isStreaming(state) };
}
