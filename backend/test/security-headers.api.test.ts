import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cameOverTls, HSTS } from '../src/common/security-headers.js';
import { startTestApp, type TestApp } from './support/test-app.js';

/** The CSP header as a map of directive → sources. */
function csp(res: Response): Record<string, string[]> {
  const header = res.headers.get('content-security-policy') ?? '';
  return Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name, sources]),
  );
}

const STRICT = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
};

describe('security headers on every answer', () => {
  let app: TestApp;
  let proxied: TestApp;
  let dist: string;

  beforeAll(async () => {
    // A stand-in for the built web app, so the shell and its assets are served as in production.
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-dist-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Aigis</title><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'index-abc.js'), 'console.log(1)');
    [app, proxied] = await Promise.all([startTestApp({ FRONTEND_DIST: dist }), startTestApp({ FRONTEND_DIST: dist, TRUST_PROXY: 'true' })]);
  });

  afterAll(async () => {
    await Promise.all([app?.close(), proxied?.close()]);
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const html = { accept: 'text/html' };
  const cases: [string, string, Record<string, string>][] = [
    ['the web app shell', '/threads/abc', html],
    ['a built asset', '/assets/index-abc.js', {}],
    ['an API answer', '/api/health', {}],
    ['an API error', '/api/connections', {}],
    ['an unknown API path', '/api/nope', {}],
  ];

  it.each(cases)('%s: strict CSP, nosniff, no referrer, no framing, no X-Powered-By, no HSTS over plain HTTP', async (_name, route, headers) => {
    const res = await fetch(`${app.url}${route}`, { headers });
    expect(csp(res)).toEqual(STRICT);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('the policy allows no eval and no inline script or style', async () => {
    const header = (await fetch(`${app.url}/`, { headers: html })).headers.get('content-security-policy') ?? '';
    expect(header).not.toMatch(/unsafe-eval|unsafe-inline|\*/);
  });

  it('the API docs page may use inline styles (Swagger UI), nothing else is relaxed', async () => {
    const res = await fetch(`${app.url}/api/docs`, { headers: html });
    expect(res.status).toBe(200);
    expect(csp(res)).toEqual({ ...STRICT, 'style-src': ["'self'", "'unsafe-inline'"] });
  });

  it('HSTS only when the request came over TLS: X-Forwarded-Proto is believed only with TRUST_PROXY', async () => {
    const forwarded = { 'x-forwarded-proto': 'https' };
    expect((await fetch(`${app.url}/api/health`, { headers: forwarded })).headers.get('strict-transport-security')).toBeNull();
    expect((await fetch(`${proxied.url}/api/health`, { headers: forwarded })).headers.get('strict-transport-security')).toBe(HSTS);
    expect((await fetch(`${proxied.url}/api/health`, { headers: { 'x-forwarded-proto': 'http' } })).headers.get('strict-transport-security')).toBeNull();
    expect((await fetch(`${proxied.url}/api/health`)).headers.get('strict-transport-security')).toBeNull();
  });

  it('a TLS socket counts as TLS whatever the proxy setting', () => {
    const tls = { socket: { encrypted: true }, headers: {} } as never;
    const plain = { socket: {}, headers: { 'x-forwarded-proto': 'https, http' } } as never;
    expect(cameOverTls(tls, false)).toBe(true);
    expect(cameOverTls(plain, false)).toBe(false);
    expect(cameOverTls(plain, true)).toBe(true);
  });
});
