import type { User } from '@aigis/contracts';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { onUnauthorized } from '../../lib/api-client';
import { readToken, writeToken } from '../../lib/auth-token';
import { authApi } from './auth-api';

type AuthStatus = 'checking' | 'signed-in' | 'signed-out';

interface AuthValue {
  status: AuthStatus;
  user: User | null;
  login(email: string, password: string): Promise<void>;
  register(email: string, password: string): Promise<void>;
  logout(): Promise<void>;
}

const AuthContext = createContext<AuthValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>(() => (readToken() ? 'checking' : 'signed-out'));
  const [user, setUser] = useState<User | null>(null);

  const signOutLocally = useCallback(() => {
    writeToken(null);
    setUser(null);
    setStatus('signed-out');
  }, []);

  useEffect(() => {
    onUnauthorized(signOutLocally);
    return () => onUnauthorized(null);
  }, [signOutLocally]);

  // A stored token is checked once at start; an expired one sends the person to the login screen.
  useEffect(() => {
    if (!readToken()) return;
    let alive = true;
    authApi
      .me()
      .then((me) => {
        if (!alive) return;
        setUser(me);
        setStatus('signed-in');
      })
      .catch(() => {
        // 401 already signed out through onUnauthorized; a network failure keeps the token for a retry.
        if (alive && readToken()) setStatus('signed-in');
      });
    return () => {
      alive = false;
    };
  }, []);

  const value = useMemo<AuthValue>(
    () => ({
      status,
      user,
      async login(email, password) {
        const res = await authApi.login(email, password);
        writeToken(res.token);
        setUser(res.user);
        setStatus('signed-in');
      },
      async register(email, password) {
        const res = await authApi.register(email, password);
        writeToken(res.token);
        setUser(res.user);
        setStatus('signed-in');
      },
      async logout() {
        try {
          await authApi.logout();
        } catch {
          // Signing out locally is what matters; the server token expires on its own.
        }
        signOutLocally();
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
