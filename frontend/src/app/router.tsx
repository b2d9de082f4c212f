import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';
import { parseRoute, type Route } from './routes';

// A small History API router: the URL is the state, components subscribe to it.
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const current = window.location.pathname + window.location.search;
  if (to === current) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  listeners.forEach((l) => l());
}

const getPathname = () => window.location.pathname;

export function usePathname(): string {
  return useSyncExternalStore(subscribe, getPathname, getPathname);
}

export function useRoute(): Route {
  return parseRoute(usePathname());
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

/** An `<a>` that navigates without reloading; modified clicks (new tab…) keep the browser's behaviour. */
export function Link({ to, onClick, ...rest }: LinkProps) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(to);
  };
  return <a href={to} onClick={handle} {...rest} />;
}
