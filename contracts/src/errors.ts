/**
 * Every error code that travels between the packages, defined once. The API answers `{error:{code,message}}`
 * with the status its code maps to; tools answer `{type:"error", code, …}` inside a turn; the web app makes a
 * few of its own for what never reached the API. Adding a code without its status or hint fails the build.
 */

/** Codes the API answers with (HTTP error bodies and stream `error` events). */
export type ApiErrorCode =
  | 'VALIDATION_FAILED'
  | 'SQL_REJECTED'
  | 'UNKNOWN_MODEL'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'ORIGIN_REFUSED'
  | 'ACCOUNT_DISABLED'
  | 'REGISTRATION_CLOSED'
  | 'INVITE_REQUIRED'
  | 'INVITE_INVALID'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'QUERY_FAILED'
  | 'QUERY_TIMEOUT'
  | 'QUERY_CANCELLED'
  | 'CONNECTION_FAILED'
  | 'SECRET_UNREADABLE'
  | 'NO_CONNECTION'
  | 'THREAD_BUSY'
  | 'NO_MODEL'
  | 'NO_PENDING_REVIEW'
  | 'REVIEW_STALE'
  | 'REVIEW_ALREADY_DECIDED'
  | 'MODEL_UNAVAILABLE'
  | 'RATE_LIMITED'
  | 'UPSTREAM_FAILED'
  | 'STORAGE_UNAVAILABLE'
  | 'INTERNAL';

/** The HTTP status of each API code. */
export const API_ERROR_STATUS = {
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
} as const satisfies Record<ApiErrorCode, number>;

/**
 * Codes only a tool result carries (never an HTTP answer): the model called a tool that does not exist or with
 * bad arguments, a chart had no rows, or the user refused the query under review.
 */
export type ToolOnlyErrorCode = 'UNKNOWN_TOOL' | 'INVALID_TOOL_ARGUMENTS' | 'NO_DATA' | 'QUERY_DENIED';

/** A tool result's code: one of its own, or the API error that stopped it (passed on as is). */
export type ToolErrorCode = ApiErrorCode | ToolOnlyErrorCode;

/** Codes the web app makes itself: the server was not reached, or a stream ended without `end`. */
export type ClientErrorCode = 'NETWORK_ERROR' | 'STREAM_CLOSED' | 'STREAM_ERROR';

/** Every code a person may be shown. */
export type ErrorCode = ApiErrorCode | ToolOnlyErrorCode | ClientErrorCode;

/** The body of every API error. `details` depends on the code (RATE_LIMITED: `{retry_after_s}`; VALIDATION_FAILED: `{issues}`). */
export interface ApiErrorBody {
  error: { code: ApiErrorCode; message: string; details?: unknown };
}

export function isApiErrorCode(value: unknown): value is ApiErrorCode {
  return typeof value === 'string' && Object.hasOwn(API_ERROR_STATUS, value);
}
