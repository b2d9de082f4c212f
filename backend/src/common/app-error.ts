/**
 * The one error type of the API. Its code decides the HTTP status; the message is what the user
 * reads, so it must say what went wrong and, where possible, what to do.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  SQL_REJECTED: 400,
  UNKNOWN_MODEL: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  ORIGIN_REFUSED: 403,
  ACCOUNT_DISABLED: 403,
  REGISTRATION_CLOSED: 403,
  INVITE_REQUIRED: 403,
  INVITE_INVALID: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  QUERY_FAILED: 422,
  QUERY_TIMEOUT: 422,
  QUERY_CANCELLED: 499,
  CONNECTION_FAILED: 422,
  SECRET_UNREADABLE: 422,
  NO_CONNECTION: 409,
  THREAD_BUSY: 409,
  NO_MODEL: 409,
  NO_PENDING_REVIEW: 409,
  REVIEW_STALE: 409,
  REVIEW_ALREADY_DECIDED: 409,
  MODEL_UNAVAILABLE: 409,
  RATE_LIMITED: 429,
  UPSTREAM_FAILED: 502,
  STORAGE_UNAVAILABLE: 503,
  INTERNAL: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

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
    return ERROR_STATUS[this.code];
  }

  toBody(): { error: { code: ErrorCode; message: string; details?: unknown } } {
    return { error: { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) } };
  }

  static notFound(what: string): AppError {
    return new AppError('NOT_FOUND', `${what} not found`);
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}
