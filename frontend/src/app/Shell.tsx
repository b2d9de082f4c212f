import { useEffect, useState, type ReactNode } from 'react';
import { useAuth } from '../features/auth/auth-context';
import { ThreadSidebar } from '../features/threads/ThreadSidebar';
import { useNewThread } from '../features/threads/use-new-thread';
import { ErrorBox } from '../ui/ErrorBox';
import { Link, usePathname } from './router';
import { paths, type Route } from './routes';

/** Sidebar (threads, connections, account) + the current screen. At phone width the sidebar is a drawer. */
export function Shell({ route, children }: { route: Route; children: ReactNode }) {
  const { user, logout } = useAuth();
  const { create, creating, error } = useNewThread();
  const [open, setOpen] = useState(false);
  const pathname = usePathname();

  useEffect(() => setOpen(false), [pathname]);

  const activeThread = route.name === 'thread' ? route.threadId : null;
  const inConnections = route.name.startsWith('connection') || route.name === 'schema' || route.name === 'knowledge';
  return (
    <div className={`shell${open ? ' drawer-open' : ''}`}>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <button type="button" className="icon-btn" aria-label="Menu" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          ☰
        </button>
        <Link to={paths.home()} className="brand">
          <img src="/favicon.svg" alt="" width={20} height={20} /> Aigis
        </Link>
      </header>
      <aside className="sidebar" aria-label="Navigation">
        <Link to={paths.home()} className="brand brand-side">
          <img src="/favicon.svg" alt="" width={22} height={22} /> Aigis
        </Link>
        <ThreadSidebar activeId={activeThread} onNewThread={() => void create()} creating={creating} />
        {error && <ErrorBox code={error.code} message={error.message} />}
        <div className="sidebar-footer">
          <Link to={paths.connections()} className={`nav-link${inConnections ? ' active' : ''}`} data-testid="nav-connections">
            Connections
          </Link>
          {user?.role === 'admin' && (
            <Link to={paths.admin()} className={`nav-link${route.name === 'admin' ? ' active' : ''}`} data-testid="nav-admin">
              Admin
            </Link>
          )}
          <div className="account">
            <span className="account-email" title={user?.email}>
              {user?.email}
            </span>
            <button type="button" className="btn btn-ghost btn-small" onClick={() => void logout()} data-testid="logout">
              Log out
            </button>
          </div>
        </div>
      </aside>
      <div className="scrim" onClick={() => setOpen(false)} aria-hidden />
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
