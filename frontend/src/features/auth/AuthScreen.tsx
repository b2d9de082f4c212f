import { useState, type FormEvent } from 'react';
import { Link, navigate } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { useAuth } from './auth-context';
import './auth.css';

export function AuthScreen({ mode }: { mode: 'login' | 'register' }) {
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const isRegister = mode === 'register';

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (isRegister) await auth.register(email.trim(), password);
      else await auth.login(email.trim(), password);
      const next = new URLSearchParams(window.location.search).get('next');
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : paths.home(), { replace: true });
    } catch (err) {
      setError(ApiError.from(err).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="auth">
      <form className="auth-card" onSubmit={submit} data-testid={isRegister ? 'register-form' : 'login-form'}>
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Aigis</span>
        </div>
        <h1>{isRegister ? 'Create your account' : 'Sign in'}</h1>
        <p className="muted">Ask your own database questions in plain language.</p>
        <label className="field">
          <span>Email</span>
          <input
            type="email"
            autoComplete="email"
            required
            autoFocus
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            data-testid="auth-email"
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete={isRegister ? 'new-password' : 'current-password'}
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            data-testid="auth-password"
          />
        </label>
        {error && (
          <div className="error-box" role="alert" data-testid="error-box">
            {error}
          </div>
        )}
        <button className="btn btn-primary btn-block" type="submit" disabled={busy} data-testid="auth-submit">
          {busy ? 'Please wait…' : isRegister ? 'Create account' : 'Sign in'}
        </button>
        <p className="auth-switch">
          {isRegister ? 'Already have an account? ' : 'New here? '}
          <Link to={isRegister ? paths.login() : paths.register()} data-testid="auth-switch">
            {isRegister ? 'Sign in' : 'Create an account'}
          </Link>
        </p>
      </form>
    </main>
  );
}
