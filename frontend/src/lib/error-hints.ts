import type { ErrorCode } from '@aigis/contracts';

/**
 * What a person can do next, per error code (API errors, stream `error` events, tool errors and the web app's
 * own). Every code has an entry, `null` where the message already says what to do; a code added to the
 * contract without one here, or a hint for a code that does not exist, fails the build.
 */
const HINTS = {
  VALIDATION_FAILED: null,
  SQL_REJECTED: 'Only read-only queries run here (one SELECT, WITH … SELECT or VALUES). Rephrase the question or edit the SQL.',
  UNKNOWN_MODEL: 'Pick a model from the list above.',
  UNAUTHORIZED: null,
  FORBIDDEN: null,
  ORIGIN_REFUSED: null,
  ACCOUNT_DISABLED: null,
  REGISTRATION_CLOSED: null,
  INVITE_REQUIRED: null,
  INVITE_INVALID: null,
  NOT_FOUND: 'It may have been deleted. Pick another item from the list.',
  CONFLICT: null,
  PAYLOAD_TOO_LARGE: null,
  QUERY_FAILED: 'The database could not run the query. Check table and column names in the schema browser, then try again.',
  QUERY_TIMEOUT: 'The query took too long. Ask for fewer rows or a narrower time range.',
  QUERY_CANCELLED: 'The query was cancelled. Ask again when you are ready.',
  CONNECTION_FAILED: 'Check the connection settings and test them on the Connections page.',
  SECRET_UNREADABLE: 'The stored password can no longer be decrypted (the server key changed). Edit the connection and enter the password again.',
  NO_CONNECTION: 'Choose a database connection for this thread above.',
  THREAD_BUSY: 'This thread is still answering (perhaps in another tab). Wait for that answer, or stop it, then send again.',
  NO_MODEL: 'Pick a model above, or start the message with SQL: to run SQL directly.',
  NO_PENDING_REVIEW: null,
  REVIEW_STALE: null,
  REVIEW_ALREADY_DECIDED: null,
  MODEL_UNAVAILABLE: 'This model cannot answer right now. Pick another model above, or start the message with SQL: to run SQL directly.',
  // The API raises 429 for its own limits only (a provider's 429 arrives as UPSTREAM_FAILED). Those with a
  // retry time get the hint below; without one it is an answer's budget of tool or model calls.
  RATE_LIMITED:
    "This answer reached a limit of this server on tool or model calls (not the model provider's). Ask a narrower question, or split it into several.",
  UPSTREAM_FAILED: 'The model provider failed to answer. Try again, or switch to another model above.',
  STORAGE_UNAVAILABLE: null,
  INTERNAL: 'Something went wrong on the server. Try again; if it keeps happening, check the server log.',
  UNKNOWN_TOOL: null,
  INVALID_TOOL_ARGUMENTS: null,
  NO_DATA: 'Ask a question whose query returns rows first, then ask for the chart.',
  QUERY_DENIED: null,
  NETWORK_ERROR: 'Check that the server is running and reachable, then try again.',
  STREAM_CLOSED: 'The connection dropped before the answer finished. Reload the thread to see what was saved, then ask again.',
  STREAM_ERROR: null,
} as const satisfies Record<ErrorCode, string | null>;

function isKnownCode(code: string): code is ErrorCode {
  return Object.hasOwn(HINTS, code);
}

/**
 * The hint for an error code. A RATE_LIMITED answer that says when to retry (`details.retry_after_s`) is one of
 * the limits that pass with time: failed logins and sign-ups per address, and what one user may run at once.
 */
export function errorHint(code: string, details?: unknown): string | undefined {
  const retryAfter = (details as { retry_after_s?: unknown } | undefined)?.retry_after_s;
  if (code === 'RATE_LIMITED' && typeof retryAfter === 'number') {
    return `A limit of this server was reached (failed logins or sign-ups from your address, or what one user may run at once), not the model provider's. Try again in ${retryAfter} s.`;
  }
  return isKnownCode(code) ? (HINTS[code] ?? undefined) : undefined;
}
