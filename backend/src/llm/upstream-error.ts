import { AppError, isAppError } from '../common/app-error.js';
import { seconds } from './probe.js';

/** True for an error caused by aborting the call (the user closed the request), not by the model. */
export function isAbortError(error: unknown): boolean {
  const name = (error as { name?: string })?.name;
  const message = (error as { message?: string })?.message ?? '';
  return name === 'AbortError' || message === 'AbortError' || message.startsWith('Aborted') || message === 'Request was aborted.';
}

/**
 * The AppError a user sees when a model call failed after LangChain's retries. Upstream messages
 * are not echoed for auth failures (some contain a masked key) and are redacted and cut otherwise.
 */
export function upstreamError(error: unknown, model: string, timeoutMs?: number): AppError {
  if (isAppError(error)) return error;
  const e = error as { status?: number; name?: string; message?: string; code?: string; cause?: { code?: string } };
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const details = { model, ...(status ? { status } : {}) };
  const make = (message: string) => new AppError('UPSTREAM_FAILED', message, details, { cause: error });
  if (status === 429) return make(`${model}: the provider is rate limiting requests (HTTP 429); try again in a moment`);
  if (status === 401 || status === 403) return make(`${model}: the provider rejected the API key (HTTP ${status})`);
  if (status === 404) return make(`${model}: the provider does not serve this model (HTTP 404)`);
  if (status !== undefined && status >= 500) return make(`${model}: the provider failed (HTTP ${status}); try again in a moment`);
  if (status !== undefined) return make(`${model}: the provider refused the request (HTTP ${status}): ${redact(e.message)}`);
  if (e?.name === 'TimeoutError' || /timed? ?out/i.test(e?.message ?? '')) {
    return make(`${model} did not answer${timeoutMs ? ` within ${seconds(timeoutMs)}` : ' in time'}`);
  }
  const code = e?.cause?.code ?? e?.code;
  if (code === 'ECONNREFUSED' || /connection error|fetch failed|terminated|other side closed/i.test(e?.message ?? '')) {
    return make(`${model}: the connection to the provider failed${code ? ` (${code})` : ''}`);
  }
  return make(`${model}: the model call failed: ${redact(e?.message ?? String(error))}`);
}

function redact(message: string | undefined): string {
  return (message ?? '').replace(/\b(sk|pk|key)[-_][A-Za-z0-9_\-*]{6,}/gi, '[redacted]').slice(0, 300);
}
