/** Link schemes assistant text may link to; anything else (javascript:, data:, relative paths…) stays text. */
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

export interface SafeLink {
  href: string;
  /** What the link really leads to, shown beside it: the host (punycode, so look-alikes show), or the address. */
  target: string;
}

/** A URL from assistant markdown as a link, or null when it must not be one. */
export function safeLink(url: string | null | undefined): SafeLink | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (!LINK_PROTOCOLS.has(parsed.protocol)) return null;
  if (parsed.protocol === 'mailto:') return { href: parsed.href, target: decodeURIComponent(parsed.pathname) };
  if (!parsed.host) return null;
  return { href: parsed.href, target: parsed.host };
}

/** A long URL shortened for display (the link itself keeps all of it). */
export function shortUrl(url: string, max = 120): string {
  return url.length <= max ? url : `${url.slice(0, max - 1)}…`;
}
