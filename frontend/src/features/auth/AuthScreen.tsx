import type { RegistrationInfo } from '@aigis/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, navigate } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { authApi } from './auth-api';
import { useAuth } from './auth-context';
import { signUpState } from './sign-up-state';
import './auth.css';

export function AuthScreen({ mode }: { mode: 'login' | 'register' }) {
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [info, setInfo] = useState<RegistrationInfo | null>(null);
  // The sign-up screen waits for the server's answer before it shows a heading or a form, so the
  // first visitor never sees "Create your account" flash into "Set up Aigis", nor an invite-only
  // visitor a form that then disappears. Without an answer (the request failed) the form is shown.
  const [asked, setAsked] = useState(false);
  const isRegister = mode === 'register';
  const invite = new URLSearchParams(window.location.search).get('invite');

  useEffect(() => {
    let alive = true;
    authApi
      .registration()
      .then((i) => alive && setInfo(i))
      .catch(() => {
        // Without the answer the form is shown; the server still decides.
      })
      .finally(() => alive && setAsked(true));
    return () => {
      alive = false;
    };
  }, []);

  const signUp = signUpState(info, invite);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      if (isRegister) await auth.register(email.trim(), password, invite ?? undefined);
      else await auth.login(email.trim(), password);
      const next = new URLSearchParams(window.location.search).get('next');
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : paths.home(), { replace: true });
    } catch (err) {
      const apiError = ApiError.from(err);
      // Register answers the same for a taken email; only the login after it can fail.
      setError(
        isRegister && apiError.status === 401
          ? 'Could not sign you in with this password. If this email already has an account, sign in with its password instead.'
          : apiError.message,
      );
    } finally {
      setBusy(false);
    }
  }

  const notice =
    isRegister && signUp === 'invite-only'
      ? 'This Aigis is invite-only. Open the invite link an admin sent you, or ask an admin for one.'
      : isRegister && signUp === 'closed'
        ? 'Registration is closed on this Aigis. Ask an admin for an account.'
        : null;
  const waiting = isRegister && !asked;
  const showForm = !isRegister || (asked && signUp === 'form');
  const offerSignUp = signUp === 'form' || info === null;

  return (
    <main className="auth">
      <form className="auth-card" onSubmit={submit} data-testid={isRegister ? 'register-form' : 'login-form'}>
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>Aigis</span>
        </div>
        <h1 aria-busy={waiting || undefined}>
          {waiting ? '\u00a0' : isRegister ? (info?.first_account ? 'Set up Aigis' : 'Create your account') : 'Sign in'}
        </h1>
        <p className="muted">
          {waiting
            ? 'Checking this Aigis…'
            : isRegister && info?.first_account
            ? 'The first account is the admin of this Aigis.'
            : isRegister && invite && signUp === 'form' && info?.mode === 'invite'
              ? 'You were invited: choose your email and password.'
              : 'Ask your own database questions in plain language.'}
        </p>
        {notice && (
          <div className="auth-notice" role="status" data-testid="registration-notice" data-mode={info?.mode}>
            {notice}
          </div>
        )}
        {showForm && (
          <>
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
                minLength={isRegister ? 8 : undefined}
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
          </>
        )}
        <p className="auth-switch">
          {isRegister ? (
            <>
              Already have an account?{' '}
              <Link to={paths.login()} data-testid="auth-switch">
                Sign in
              </Link>
            </>
          ) : offerSignUp ? (
            <>
              New here?{' '}
              <Link to={paths.register()} data-testid="auth-switch">
                {info?.first_account ? 'Set up this Aigis' : 'Create an account'}
              </Link>
            </>
          ) : (
            <span data-testid="registration-notice" data-mode={info?.mode}>
              {info?.mode === 'invite' ? 'New here? You need an invite link from an admin.' : 'Registration is closed; ask an admin for an account.'}
            </span>
          )}
        </p>
      </form>
    </main>
  );
}
