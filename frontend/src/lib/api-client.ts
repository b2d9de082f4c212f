import { ApiError } from './api-error';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

let unauthorizedHandler: (() => void) | null = null;

/** Called on any 401 so the app can drop the session and go back to the login screen. */
export function onUnauthorized(handler: (() => void) | null): void {
  unauthorizedHandler = handler;
}

// The session is an httpOnly cookie the server sets at login: scripts never see the token, so an
// injected script cannot steal it. The browser sends it (and Origin) on same-origin requests.
const CREDENTIALS: RequestCredentials = 'same-origin';

function headers(hasBody: boolean, accept = 'application/json'): Headers {
  const h = new Headers({ Accept: accept });
  if (hasBody) h.set('Content-Type', 'application/json');
  return h;
}

/** Sends a request to `/api…` and answers the parsed JSON body (undefined for 204). */
export async function apiRequest<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`/api${path}`, {
      method,
      headers: headers(body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: CREDENTIALS,
      signal,
    });
  } catch (err) {
    throw ApiError.from(err);
  }
  if (!res.ok) {
    const error = await ApiError.fromResponse(res);
    if (res.status === 401 && !path.startsWith('/auth/login') && !path.startsWith('/auth/register')) {
      unauthorizedHandler?.();
    }
    throw error;
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Opens a POST whose answer is `text/event-stream`; the caller reads `res.body`. */
export async function apiStream(path: string, body: unknown, signal: AbortSignal): Promise<Response> {
  const res = await fetch(`/api${path}`, {
    method: 'POST',
    headers: headers(true, 'text/event-stream'),
    body: JSON.stringify(body),
    credentials: CREDENTIALS,
    signal,
  });
  if (!res.ok) {
    const error = await ApiError.fromResponse(res);
    if (res.status === 401) unauthorizedHandler?.();
    throw error;
  }
  return res;
}

export const api = {
  get: <T>(path: string, signal?: AbortSignal) => apiRequest<T>('GET', path, undefined, signal),
  post: <T>(path: string, body?: unknown) => apiRequest<T>('POST', path, body ?? {}),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, body),
  delete: (path: string) => apiRequest<void>('DELETE', path),
};
