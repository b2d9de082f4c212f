import tls from 'node:tls';
import type { SslMode } from '@aigis/contracts';
import type { ConnectionTarget } from './dialect-adapter.js';

/** The mode a target asks for (older targets only say `ssl: true`, which meant `require`). */
export function sslModeOf(target: Pick<ConnectionTarget, 'ssl' | 'sslMode'>): SslMode {
  return target.sslMode ?? (target.ssl ? 'require' : 'disable');
}

/**
 * TLS options in libpq's terms: `require` encrypts without checking the certificate; `verify-ca` checks it was
 * issued by the given CA (or a system root); `verify-full` also checks it names the host the user typed (not the
 * address we connected to). `disable`: no TLS (null).
 */
export function tlsOptionsFor(target: Pick<ConnectionTarget, 'ssl' | 'sslMode' | 'sslCa' | 'host'>): tls.ConnectionOptions | null {
  const mode = sslModeOf(target);
  if (mode === 'disable') return null;
  if (mode === 'require') return { rejectUnauthorized: false };
  const host = (target.host ?? 'localhost').replace(/^\[|\]$/g, '');
  return {
    rejectUnauthorized: true,
    ...(target.sslCa ? { ca: target.sslCa } : {}),
    checkServerIdentity: mode === 'verify-full' ? (_name, cert) => tls.checkServerIdentity(host, cert) : () => undefined,
  };
}
