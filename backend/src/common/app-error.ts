import { API_ERROR_STATUS, type ApiErrorBody, type ApiErrorCode } from '@aigis/contracts';

/**
 * The one error type of the API. Its code (from the shared vocabulary in `@aigis/contracts`) decides the
 * HTTP status; the message is what the user reads, so it must say what went wrong and, where possible, what to do.
 */
export type ErrorCode = ApiErrorCode;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
  }

  get status(): number {
    return API_ERROR_STATUS[this.code];
  }

  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) } };
  }

  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} not found`);
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
