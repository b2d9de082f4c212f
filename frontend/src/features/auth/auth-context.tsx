import type { User } from '@aigis/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { onUnauthorized } from '../../lib/api-client';
import { authApi } from './auth-api';

type AuthStatus = 'checking' | 'signed-in' | 'signed-out' | 'unreachable';

interface AuthValue {
  status: AuthStatus;
  user: User | null;
  login(email: string, password: string): Promise<void>;
  register(email: string, password: string, invite?: string): Promise<void>;
  logout(): Promise<void>;
  /** Asks the server again who is signed in (after the server was unreachable). */
  recheck(): void;
}

const AuthContext = createContext<AuthValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>('checking');
  const [user, setUser] = useState<User | null>(null);
  const [attempt, setAttempt] = useState(0);

  const signOutLocally = useCallback(() => {
    setUser(null);
    setStatus('signed-out');
  }, []);

  useEffect(() => {
    onUnauthorized(signOutLocally);
    return () => onUnauthorized(null);
  }, [signOutLocally]);

  // The session cookie is invisible to scripts: the server says whether there is one.
  useEffect(() => {
    let alive = true;
    authApi
      .session()
      .then(({ user: current }) => {
        if (!alive) return;
        setUser(current);
        setStatus(current ? 'signed-in' : 'signed-out');
      })
      .catch(() => {
        // A network failure is not a sign-out: say so and offer to try again.
        if (alive) setStatus('unreachable');
      });
    return () => {
      alive = false;
    };
  }, [attempt]);

  const value = useMemo<AuthValue>(
    () => ({
      status,
      user,
      async login(email, password) {
        const res = await authApi.login(email, password);
        setUser(res.user);
        setStatus('signed-in');
      },
      async register(email, password, invite) {
        await authApi.register(email, password, invite);
        const res = await authApi.login(email, password);
        setUser(res.user);
        setStatus('signed-in');
      },
      async logout() {
        try {
          await authApi.logout();
        } catch {
          // Signing out locally is what matters; the server session expires on its own.
        }
        signOutLocally();
      },
      recheck() {
        setStatus('checking');
        setAttempt((n) => n + 1);
      },
    }),
    [status, user, signOutLocally],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
