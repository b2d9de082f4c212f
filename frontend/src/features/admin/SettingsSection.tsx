import type { InstanceSettings, RegistrationMode } from '@aigis/contracts';
import { useCallback, useState } from 'react';
import { ApiError } from '../../lib/api-error';
import { useRemote } from '../../lib/use-remote';
import { ErrorBox } from '../../ui/ErrorBox';
import { adminApi } from './admin-api';

const MODE_TEXT: Record<RegistrationMode, string> = {
  open: 'Open: anyone who reaches this Aigis can create an account.',
  invite: 'Invite-only: an account needs an invite link from an admin.',
  closed: 'Closed: nobody can create an account.',
};

/** The registration mode (changeable unless REGISTRATION pins it) and the read-only instance settings. */
export function SettingsSection() {
  const settings = useRemote<InstanceSettings | null>(useCallback(() => adminApi.settings(), []), null);
  const [error, setError] = useState<ApiError | null>(null);
  const s = settings.data;

  async function setMode(mode: RegistrationMode) {
    setError(null);
    try {
      settings.setData(await adminApi.setRegistration(mode));
    } catch (err) {
      setError(ApiError.from(err));
    }
  }

  return (
    <section className="admin-section" aria-labelledby="admin-settings">
      <h2 id="admin-settings">Registration</h2>
      {settings.error && <ErrorBox code={settings.error.code} message={settings.error.message} onRetry={settings.refresh} />}
      {error && <ErrorBox code={error.code} message={error.message} />}
      {s && (
        <>
          <fieldset className="field" data-testid="registration-mode" disabled={s.registration.source === 'environment'}>
            {(['open', 'invite', 'closed'] as const).map((mode) => (
              <label key={mode} className="admin-row-actions">
                <input type="radio" name="registration" value={mode} checked={s.registration.mode === mode} onChange={() => void setMode(mode)} />
                {MODE_TEXT[mode]}
              </label>
            ))}
          </fieldset>
          {s.registration.source === 'environment' && (
            <p className="muted" data-testid="registration-locked">
              Set by the REGISTRATION environment variable; change it there.
            </p>
          )}
          <details>
            <summary>Instance settings</summary>
            <dl className="settings-list" data-testid="instance-settings">
              <dt>Mode</dt>
              <dd>{s.mode === 'server' ? 'server (PostgreSQL storage)' : 'embedded (SQLite storage)'}</dd>
              <dt>Behind a proxy (TRUST_PROXY)</dt>
              <dd>{String(s.trust_proxy)}</dd>
              <dt>SQLite files (SQLITE_ROOT)</dt>
              <dd>{s.sqlite_root}</dd>
              <dt>Session lifetime</dt>
              <dd>{s.limits.token_ttl_hours} h</dd>
              <dt>Free failed logins per address</dt>
              <dd>
                {s.limits.login_max_failures} per account, {s.limits.login_max_failures * 4} in all, per {s.limits.login_window_minutes} min
              </dd>
              <dt>Registrations per address</dt>
              <dd>{s.limits.registrations_per_hour} per hour</dd>
              <dt>Rows per query</dt>
              <dd>
                {s.limits.row_limit} (at most {s.limits.row_limit_max})
              </dd>
              <dt>Statement timeout</dt>
              <dd>{s.limits.statement_timeout_ms} ms</dd>
            </dl>
          </details>
        </>
      )}
    </section>
  );
}
