import { AppError } from './app-error.js';

/**
 * The error for a per-user limit: HTTP 429 RATE_LIMITED, with when to retry in the message and as
 * `details.retry_after_s` (the exception filter also sends it as a Retry-After header).
 */
export function rateLimited(message: string, retryAfterS: number): AppError {
  const seconds = Math.max(1, Math.ceil(retryAfterS));
  return new AppError('RATE_LIMITED', `${message} Try again in ${seconds} s.`, { retry_after_s: seconds });
}

/** The retry hint of a RATE_LIMITED error, if it has one. */
export function retryAfterOf(error: AppError): number | undefined {
  const value = (error.details as { retry_after_s?: unknown } | undefined)?.retry_after_s;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
