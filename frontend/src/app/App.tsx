import { useEffect } from 'react';
import { AuthProvider, useAuth } from '../features/auth/auth-context';
import { AdminPage } from '../features/admin/AdminPage';
import { AuthScreen } from '../features/auth/AuthScreen';
import { ChatView } from '../features/chat/ChatView';
import { HomeView } from '../features/chat/HomeView';
import { ConnectionForm } from '../features/connections/ConnectionForm';
import { ConnectionsPage } from '../features/connections/ConnectionsPage';
import { ConnectionsProvider } from '../features/connections/connections-context';
import { SchemaBrowser } from '../features/connections/SchemaBrowser';
import { KnowledgePage } from '../features/knowledge/KnowledgePage';
import { ModelsProvider } from '../features/models/models-context';
import { ThreadsProvider } from '../features/threads/threads-context';
import { Link, navigate, useRoute } from './router';
import { paths, type Route } from './routes';
import { Shell } from './Shell';

export function App() {
  return (
    <AuthProvider>
      <AuthGate />
    </AuthProvider>
  );
}

const PUBLIC = new Set<Route['name']>(['login', 'register']);

function AuthGate() {
  const { status, user, recheck } = useAuth();
  const route = useRoute();
  const isPublic = PUBLIC.has(route.name);

  useEffect(() => {
    if (status === 'signed-out' && !isPublic) {
      const here = window.location.pathname + window.location.search;
      navigate(here === '/' ? paths.login() : `${paths.login()}?next=${encodeURIComponent(here)}`, { replace: true });
    } else if (status === 'signed-in' && isPublic) {
      navigate(paths.home(), { replace: true });
    }
  }, [status, isPublic]);

  if (status === 'checking') return <div className="splash" aria-busy="true" />;
  if (status === 'unreachable') {
    return (
      <main className="page" data-testid="server-unreachable">
        <h1>Aigis is not answering</h1>
        <p className="muted">The server could not be reached. Check that it is running, then try again.</p>
        <button type="button" className="btn btn-primary" onClick={recheck}>
          Try again
        </button>
      </main>
    );
  }
  if (status === 'signed-out') return isPublic ? <AuthScreen mode={route.name === 'register' ? 'register' : 'login'} /> : null;
  if (isPublic) return null;

  // Data providers live inside the gate: they load once signed in and reset on logout.
  return (
    <ModelsProvider>
      <ConnectionsProvider>
        <ThreadsProvider>
          <Shell route={route}>
            <Screen route={route} isAdmin={user?.role === 'admin'} />
          </Shell>
        </ThreadsProvider>
      </ConnectionsProvider>
    </ModelsProvider>
  );
}

function Screen({ route, isAdmin }: { route: Route; isAdmin: boolean }) {
  switch (route.name) {
    case 'admin':
      if (isAdmin) return <AdminPage />;
      break;
    case 'home':
      return <HomeView />;
    case 'thread':
      return <ChatView key={route.threadId} threadId={route.threadId} />;
    case 'connections':
      return <ConnectionsPage />;
    case 'connection-new':
      return <ConnectionForm />;
    case 'connection-edit':
      return <ConnectionForm connectionId={route.connectionId} />;
    case 'schema':
      return <SchemaBrowser connectionId={route.connectionId} />;
    case 'knowledge':
      return <KnowledgePage connectionId={route.connectionId} />;
  }
  return <NotFound />;
}

function NotFound() {
  return (
    <div className="page">
      <h1>Not found</h1>
      <p className="muted">Nothing lives at this address.</p>
      <Link to={paths.home()}>Go to the start</Link>
    </div>
  );
}
