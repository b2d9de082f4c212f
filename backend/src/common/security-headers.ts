import type { TLSSocket } from 'node:tls';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * The app's Content-Security-Policy. Everything comes from our own origin; charts need no
 * 'unsafe-eval' (vega runs its expression interpreter) and no inline styles (vega-embed's stylesheet
 * is a file); exported charts are data:/blob: images. A model steered by text in the user's database
 * cannot make the page load from, or send to, anywhere else.
 */
export const APP_CSP: Record<string, string[]> = {
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

/** Swagger UI (/api/docs) writes inline <style> blocks; it alone may. */
const DOCS_CSP: Record<string, string[]> = { ...APP_CSP, 'style-src': ["'self'", "'unsafe-inline'"] };

export const HSTS = 'max-age=31536000';

/**
 * Whether a request came over TLS: its own socket, or, only when the operator says a proxy is in
 * front (TRUST_PROXY), the proxy's X-Forwarded-Proto. A browser ignores HSTS over plain HTTP anyway;
 * sending it only then keeps a plain-HTTP install (a laptop) from pinning HTTPS on its host name.
 */
export function cameOverTls(req: Pick<Request, 'socket' | 'headers'>, trustProxy: boolean): boolean {
  if ((req.socket as TLSSocket).encrypted === true) return true;
  if (!trustProxy) return false;
  const proto = req.headers['x-forwarded-proto'];
  return String(Array.isArray(proto) ? proto[0] : (proto ?? '')).split(',')[0].trim().toLowerCase() === 'https';
}

/** Security headers for every answer, API and web app alike (helmet, plus HSTS over TLS). */
export function securityHeaders(options: { trustProxy: boolean }): RequestHandler[] {
  const common = {
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'no-referrer' as const },
    xFrameOptions: { action: 'deny' as const },
  };
  const app = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: APP_CSP } });
  const docs = helmet({ ...common, contentSecurityPolicy: { useDefaults: false, directives: DOCS_CSP } });
  return [
    (req: Request, res: Response, next: NextFunction) => (req.path === '/api/docs' || req.path.startsWith('/api/docs/') ? docs : app)(req, res, next),
    (req: Request, res: Response, next: NextFunction) => {
      if (cameOverTls(req, options.trustProxy)) res.setHeader('Strict-Transport-Security', HSTS);
      next();
    },
  ];
}
