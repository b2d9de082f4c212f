import { useEffect } from 'react';
import { AuthProvider, useAuth } from '../features/auth/auth-context';
import { AuthScreen } from '../features/auth/AuthScreen';
import { ChatView } from '../features/chat/ChatView';
import { HomeView } from '../features/chat/HomeView';
import { ConnectionForm } from '../features/connections/ConnectionForm';
import { ConnectionsPage } from '../features/connections/ConnectionsPage';
import { ConnectionsProvider } from '../features/connections/connections-context';
import { SchemaBrowser } from '../features/connections/SchemaBrowser';
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
  const { status } = useAuth();
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
  if (status === 'signed-out') return isPublic ? <AuthScreen mode={route.name === 'register' ? 'register' : 'login'} /> : null;
  if (isPublic) return null;

  // Data providers live inside the gate: they load once signed in and reset on logout.
  return (
    <ModelsProvider>
      <ConnectionsProvider>
        <ThreadsProvider>
          <Shell route={route}>
            <Screen route={route} />
          </Shell>
        </ThreadsProvider>
      </ConnectionsProvider>
    </ModelsProvider>
  );
}

function Screen({ route }: { route: Route }) {
  switch (route.name) {
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
    default:
      return (
        <div className="page">
          <h1>Not found</h1>
          <p className="muted">Nothing lives at this address.</p>
          <Link to={paths.home()}>Go to the start</Link>
        </div>
      );
  }
}
