import { AppError } from '../../common/app-error.js';

export function cancelledError(): AppError {
  return new AppError('QUERY_CANCELLED', 'the query was cancelled and stopped in the database');
}

export function timeoutError(timeoutMs: number): AppError {
  return new AppError('QUERY_TIMEOUT', `the query ran longer than ${formatSeconds(timeoutMs)} s and was stopped`);
}

export function formatSeconds(ms: number): string {
  return String(Math.round(ms / 100) / 10);
}

/**
 * The client-side timer that backs up the database's own statement timeout: it fires a little later, so the
 * database normally stops the statement first and this only catches a server or network that stopped answering.
 */
export function backupTimerMs(timeoutMs: number): number {
  return timeoutMs + Math.min(5000, Math.max(500, Math.round(timeoutMs * 0.1)));
}

/** How long to wait for a stopped statement to actually end before giving up on it (the connection is discarded). */
const SETTLE_MS = 3000;

export type StopReason = 'cancel' | 'timeout';

export interface SuperviseOptions {
  signal?: AbortSignal;
  /** Client-side timer; on expiry the work is stopped and QUERY_TIMEOUT is raised. */
  timerMs: number;
  /** The statement's timeout as the user configured it, for the message. */
  timeoutMs: number;
  /** Stops the statement in the database (cancel request, KILL QUERY, kill the worker). */
  stop: (reason: StopReason) => Promise<void>;
}

/**
 * Runs `work` while watching the abort signal and a client-side timer. On either, it stops the statement in the
 * database, waits (bounded) until the work has really ended, and rejects with QUERY_CANCELLED / QUERY_TIMEOUT, so
 * when the caller sees the rejection the statement no longer runs.
 */
export async function supervise<T>(work: Promise<T>, options: SuperviseOptions): Promise<T> {
  const { signal, timerMs, timeoutMs, stop } = options;
  let reason: StopReason | null = null;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const interrupted = new Promise<StopReason>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timerMs);
    if (signal) {
      onAbort = () => resolve('cancel');
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
  });
  const settled = work.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  try {
    const first = await Promise.race([settled, interrupted]);
    if (typeof first === 'string') {
      reason = first;
      await stopUntilSettled(settled, () => stop(reason!));
      throw reason === 'cancel' ? cancelledError() : timeoutError(timeoutMs);
    }
    if (first.ok) return first.value;
    throw first.error;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}

/** How often a stop is repeated while the work has not ended (see stopUntilSettled). */
const RESTOP_MS = 250;

/**
 * Stops the statement, and stops it again while the work has not ended (bounded by SETTLE_MS): a cancel
 * request that reaches the server between two statements of the work (after BEGIN, before the FETCH)
 * cancels nothing, and the next statement would then run to its timeout.
 */
async function stopUntilSettled(settled: Promise<unknown>, stop: () => Promise<void>): Promise<void> {
  let done = false;
  void settled.then(() => (done = true));
  const deadline = Date.now() + SETTLE_MS;
  while (!done && Date.now() < deadline) {
    await stop().catch(() => undefined);
    await Promise.race([settled, delay(Math.min(RESTOP_MS, Math.max(0, deadline - Date.now())))]);
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/**
 * Waits for a promise (a pool checkout) but gives up on abort or after `waitMs`; a late result is handed to
 * `discard` so nothing leaks.
 */
export async function waitFor<T>(
  pending: Promise<T>,
  options: { signal?: AbortSignal; waitMs: number; onTimeout: () => Error; discard: (value: T) => void },
): Promise<T> {
  const { signal, waitMs, onTimeout, discard } = options;
  if (signal?.aborted) {
    pending.then(discard, () => undefined);
    throw cancelledError();
  }
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  let gaveUp = false;
  try {
    return await new Promise<T>((resolve, reject) => {
      timer = setTimeout(() => {
        gaveUp = true;
        reject(onTimeout());
      }, waitMs);
      onAbort = () => {
        gaveUp = true;
        reject(cancelledError());
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      pending.then(
        (value) => (gaveUp ? discard(value) : resolve(value)),
        (error: unknown) => reject(error),
      );
    });
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  }
}
