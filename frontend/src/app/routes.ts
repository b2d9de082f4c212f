/** The app's screens, parsed from `location.pathname` (pure, so it is tested without a browser). */
export type Route =
  | { name: 'home' }
  | { name: 'login' }
  | { name: 'register' }
  | { name: 'thread'; threadId: string }
  | { name: 'connections' }
  | { name: 'connection-new' }
  | { name: 'connection-edit'; connectionId: string }
  | { name: 'schema'; connectionId: string }
  | { name: 'knowledge'; connectionId: string }
  | { name: 'admin' }
  | { name: 'not-found'; path: string };

export function parseRoute(pathname: string): Route {
  const parts = pathname.split('/').filter(Boolean).map(safeDecode);
  const [a, b, c, ...rest] = parts;
  if (rest.length > 0) return { name: 'not-found', path: pathname };
  if (!a) return { name: 'home' };
  if (a === 'login' && !b) return { name: 'login' };
  if (a === 'register' && !b) return { name: 'register' };
  if (a === 'threads' && b && !c) return { name: 'thread', threadId: b };
  if (a === 'admin' && !b) return { name: 'admin' };
  if (a === 'connections') {
    if (!b) return { name: 'connections' };
    if (b === 'new' && !c) return { name: 'connection-new' };
    if (c === 'edit') return { name: 'connection-edit', connectionId: b };
    if (c === 'schema') return { name: 'schema', connectionId: b };
    if (c === 'knowledge') return { name: 'knowledge', connectionId: b };
  }
  return { name: 'not-found', path: pathname };
}

export const paths = {
  home: () => '/',
  login: () => '/login',
  register: () => '/register',
  thread: (id: string) => `/threads/${encodeURIComponent(id)}`,
  connections: () => '/connections',
  newConnection: () => '/connections/new',
  editConnection: (id: string) => `/connections/${encodeURIComponent(id)}/edit`,
  schema: (id: string) => `/connections/${encodeURIComponent(id)}/schema`,
  knowledge: (id: string) => `/connections/${encodeURIComponent(id)}/knowledge`,
  admin: () => '/admin',
  /** The sign-up page of an invite (the token is a query parameter, so it never reaches a server log as a path). */
  invite: (token: string) => `/register?invite=${encodeURIComponent(token)}`,
};

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
