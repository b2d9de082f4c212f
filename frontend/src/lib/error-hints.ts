/** What a person can do next, per error code (API errors, stream `error` events and tool errors). */
const HINTS: Record<string, string> = {
  SQL_REJECTED: 'Only read-only queries run here (one SELECT, WITH … SELECT or VALUES). Rephrase the question or edit the SQL.',
  QUERY_FAILED: 'The database could not run the query. Check table and column names in the schema browser, then try again.',
  QUERY_TIMEOUT: 'The query took too long. Ask for fewer rows or a narrower time range.',
  MODEL_UNAVAILABLE: 'This model cannot answer right now. Pick another model above, or start the message with SQL: to run SQL directly.',
  UNKNOWN_MODEL: 'Pick a model from the list above.',
  NO_MODEL: 'Pick a model above, or start the message with SQL: to run SQL directly.',
  NO_CONNECTION: 'Choose a database connection for this thread above.',
  THREAD_BUSY: 'This thread is still answering (perhaps in another tab). Wait for that answer, or stop it, then send again.',
  CONNECTION_FAILED: 'Check the connection settings and test them on the Connections page.',
  UPSTREAM_FAILED: 'The model provider failed to answer. Try again, or switch to another model above.',
  QUERY_CANCELLED: 'The query was cancelled. Ask again when you are ready.',
  SECRET_UNREADABLE: 'The stored password can no longer be decrypted (the server key changed). Edit the connection and enter the password again.',
  INTERNAL: 'Something went wrong on the server. Try again; if it keeps happening, check the server log.',
  RATE_LIMITED:
    'A per-user limit of this server was reached (queries, answers or database connections at once, or tool and model calls in one answer). Wait until what is running has finished, then try again.',
  NETWORK_ERROR: 'Check that the server is running and reachable, then try again.',
  STREAM_CLOSED: 'The connection dropped before the answer finished. Reload the thread to see what was saved, then ask again.',
  NOT_FOUND: 'It may have been deleted. Pick another item from the list.',
};

/** The hint for an error code; a RATE_LIMITED answer that says when to retry (`details.retry_after_s`) gets that in it. */
export function errorHint(code: string, details?: unknown): string | undefined {
  const retryAfter = (details as { retry_after_s?: unknown } | undefined)?.retry_after_s;
  if (code === 'RATE_LIMITED' && typeof retryAfter === 'number') {
    return `A per-user limit of this server was reached, not the model provider's. Try again in ${retryAfter} s.`;
  }
  return HINTS[code];
}
