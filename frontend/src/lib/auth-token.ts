// The bearer token lives in localStorage so a session survives a reload.
const KEY = 'aigis.token';

export function readToken(): string | null {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

export function writeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(KEY, token);
    else localStorage.removeItem(KEY);
  } catch {
    // Storage disabled (private mode): the session then lasts only as long as the tab.
  }
}
