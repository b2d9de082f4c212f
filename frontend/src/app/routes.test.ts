import { describe, expect, it } from 'vitest';
import { parseRoute, paths } from './routes';

describe('routes', () => {
  it('parses every screen from its path', () => {
    expect(parseRoute('/')).toEqual({ name: 'home' });
    expect(parseRoute('/login')).toEqual({ name: 'login' });
    expect(parseRoute('/threads/abc-123')).toEqual({ name: 'thread', threadId: 'abc-123' });
    expect(parseRoute('/connections')).toEqual({ name: 'connections' });
    expect(parseRoute('/connections/new')).toEqual({ name: 'connection-new' });
    expect(parseRoute('/connections/c1/edit')).toEqual({ name: 'connection-edit', connectionId: 'c1' });
    expect(parseRoute('/connections/c1/schema/')).toEqual({ name: 'schema', connectionId: 'c1' });
    expect(parseRoute('/connections/c1/knowledge')).toEqual({ name: 'knowledge', connectionId: 'c1' });
    expect(parseRoute('/admin')).toEqual({ name: 'admin' });
    expect(parseRoute('/admin/x').name).toBe('not-found');
    expect(parseRoute('/threads/a/b').name).toBe('not-found');
    expect(parseRoute('/nope').name).toBe('not-found');
  });

  it('round-trips ids that need escaping', () => {
    const id = 'a b/c?d';
    expect(parseRoute(paths.thread(id))).toEqual({ name: 'thread', threadId: id });
    expect(parseRoute(paths.schema(id))).toEqual({ name: 'schema', connectionId: id });
    expect(parseRoute(paths.knowledge(id))).toEqual({ name: 'knowledge', connectionId: id });
  });

  it('puts an invite token in the query of the sign-up page', () => {
    const url = new URL(paths.invite('inv_a+b/c'), 'http://x');
    expect(parseRoute(url.pathname)).toEqual({ name: 'register' });
    expect(url.searchParams.get('invite')).toBe('inv_a+b/c');
  });
});
