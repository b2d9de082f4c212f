import type { ApiErrorBody } from '@aigis/contracts';

/** The one error type of the web app: an API error (`{error:{code,message}}` + status) or a network failure. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
    /** HTTP status; 0 when the request never got an answer. */
    readonly status: number,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static async fromResponse(res: Response): Promise<ApiError> {
    let body: unknown = null;
    try {
      body = await res.json();
    } catch {
      // Not JSON (a proxy error page, an empty body): fall back to the status line below.
    }
    const error = (body as ApiErrorBody | null)?.error;
    if (error && typeof error.code === 'string') {
      return new ApiError(error.code, error.message || error.code, res.status, error.details);
    }
    return new ApiError(`HTTP_${res.status}`, res.statusText || `Request failed with status ${res.status}`, res.status);
  }

  static from(err: unknown): ApiError {
    if (err instanceof ApiError) return err;
    const message = err instanceof Error ? err.message : String(err);
    return new ApiError('NETWORK_ERROR', `Could not reach the server (${message}).`, 0);
  }
}

export function isAbortError(err: unknown): boolean {
  return err instanceof DOMException ? err.name === 'AbortError' : (err as { name?: string } | null)?.name === 'AbortError';
}
