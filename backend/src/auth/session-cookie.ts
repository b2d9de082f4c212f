import type { CookieOptions, Request, Response } from 'express';

/** Over TLS the `__Host-` prefix binds the cookie to this exact host (no subdomain can set or shadow it). */
const SECURE_NAME = '__Host-aigis_session';
const PLAIN_NAME = 'aigis_session';

/** TLS as Express sees it: the socket, or X-Forwarded-Proto when TRUST_PROXY is on. */
function cookieOptions(req: Request, maxAgeMs?: number): CookieOptions {
  return { httpOnly: true, sameSite: 'strict', secure: req.secure, path: '/', ...(maxAgeMs === undefined ? {} : { maxAge: maxAgeMs }) };
}

export function setSessionCookie(req: Request, res: Response, token: string, maxAgeMs: number): void {
  res.cookie(req.secure ? SECURE_NAME : PLAIN_NAME, token, cookieOptions(req, maxAgeMs));
}

/** Expires both names (a session may have started over plain HTTP before TLS was put in front). */
export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(PLAIN_NAME, { ...cookieOptions(req), secure: false });
  if (req.secure) res.clearCookie(SECURE_NAME, cookieOptions(req));
}

/** The session token from the Cookie header, if any (no cookie-parser: one cookie of ours to read). */
export function readSessionCookie(req: Request): string | null {
  const header = req.headers.cookie;
  if (!header) return null;
  let plain: string | null = null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === SECURE_NAME && value) return value;
    if (name === PLAIN_NAME && value) plain = value;
  }
  return plain;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isStateChanging(req: Request): boolean {
  return !SAFE_METHODS.has(req.method.toUpperCase());
}

/**
 * Whether a request that carries the session cookie comes from our own pages: its Origin (or, without
 * one, its Referer) must be this app's origin or one of CORS_ORIGIN. Browsers send Origin on every
 * POST/PATCH/DELETE, so a missing one is refused too. The Host a browser sends cannot be chosen by
 * another site, so comparing with it is sound; behind a proxy Express reads X-Forwarded-Host/-Proto
 * only when TRUST_PROXY is on.
 */
export function hasTrustedOrigin(req: Request, allowedOrigins: readonly string[]): boolean {
  const claimed = originOf(req.headers.origin) ?? originOf(req.headers.referer);
  if (!claimed) return false;
  const own = originOf(`${req.protocol}://${req.host}`);
  return claimed === own || allowedOrigins.some((allowed) => originOf(allowed) === claimed);
}

function originOf(value: string | string[] | undefined): string | null {
  if (typeof value !== 'string' || !value || value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

export function corsOrigins(corsOrigin: string | undefined): string[] {
  return (corsOrigin ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}
