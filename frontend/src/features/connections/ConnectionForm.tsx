import { Link } from '../../app/router';
import { paths } from '../../app/routes';
import { ErrorBox } from '../../ui/ErrorBox';
import { Field } from '../../ui/Field';
import { DIALECT_LABEL } from '../../ui/format';
import { ReviewModeSelect } from '../chat/ReviewModeSelect';
import { SSL_MODE_LABEL, type ConnectionFormValues } from './connection-form-model';
import { ConnectionPolicyFields } from './ConnectionPolicyFields';
import { ElevatedWarning } from './ElevatedWarning';
import { SqliteFilePicker } from './SqliteFilePicker';
import { TestResultView } from './TestResultView';
import { useConnectionForm } from './use-connection-form';
import './connections.css';

/** Add (no id) or edit a connection; after saving, the connection is tested at once. State: use-connection-form. */
export function ConnectionForm({ connectionId }: { connectionId?: string }) {
  const form = useConnectionForm(connectionId);
  const { saved, values, review, errors, url, urlError, loadError, saveError, busy, test, justSaved, passwordDropped } = form.state;
  const { editing, setDialect, applyUrl, runTest, submit } = form;
  const willDrop = form.willDropPassword;
  const set = form.setField;

  if (loadError) {
    return (
      <div className="page">
        <ErrorBox code={loadError.code} message={loadError.message} />
        <Link to={paths.connections()}>Back to connections</Link>
      </div>
    );
  }

  const isSqlite = values.dialect === 'sqlite';
  return (
    <div className="page page-narrow">
      <header className="page-header">
        <div>
          <p className="crumbs">
            <Link to={paths.connections()}>Connections</Link> /
          </p>
          <h1>{editing ? `Edit ${saved?.name ?? 'connection'}` : 'Add a connection'}</h1>
        </div>
      </header>

      <form className="form" onSubmit={submit} noValidate data-testid="connection-form">
        {!isSqlite || !editing ? (
          <label className="field">
            <span>Paste a connection URL (optional)</span>
            <input
              type="text"
              value={url}
              placeholder="postgres://user:password@host:5432/database?sslmode=require"
              onChange={(e) => applyUrl(e.target.value)}
              spellCheck={false}
              autoComplete="off"
              data-testid="conn-url"
            />
            {urlError ? <small className="field-error">{urlError}</small> : <small className="muted">Fills in the fields below; nothing is sent until you save.</small>}
          </label>
        ) : null}

        <fieldset className="field">
          <legend>Database type</legend>
          <div className="segmented" role="radiogroup">
            {(['postgres', 'mysql', 'sqlite'] as const).map((d) => (
              <label key={d} className={values.dialect === d ? 'active' : ''}>
                <input
                  type="radio"
                  name="dialect"
                  value={d}
                  checked={values.dialect === d}
                  onChange={() => setDialect(d)}
                  data-testid={`conn-dialect-${d}`}
                />
                {DIALECT_LABEL[d]}
              </label>
            ))}
          </div>
        </fieldset>

        <Field label="Name" error={errors.name}>
          <input value={values.name} onChange={(e) => set('name', e.target.value)} data-testid="conn-name" required />
        </Field>

        {isSqlite ? (
          <SqliteFilePicker value={values.database} onChange={(v) => set('database', v)} error={errors.database} />
        ) : (
          <>
            <div className="field-row">
              <Field label="Host" error={errors.host} grow>
                <input value={values.host} onChange={(e) => set('host', e.target.value)} spellCheck={false} data-testid="conn-host" />
              </Field>
              <Field label="Port" error={errors.port}>
                <input
                  value={values.port}
                  onChange={(e) => set('port', e.target.value)}
                  inputMode="numeric"
                  className="input-port"
                  data-testid="conn-port"
                />
              </Field>
            </div>
            <Field label="Database" error={errors.database}>
              <input value={values.database} onChange={(e) => set('database', e.target.value)} spellCheck={false} data-testid="conn-database" />
            </Field>
            <div className="field-row">
              <Field label="User" error={errors.user} grow>
                <input
                  value={values.user}
                  onChange={(e) => set('user', e.target.value)}
                  autoComplete="off"
                  spellCheck={false}
                  data-testid="conn-user"
                />
              </Field>
              <Field
                label="Password"
                error={errors.password}
                grow
                note={
                  willDrop
                    ? undefined
                    : editing && saved?.has_password
                      ? 'Stored. Leave empty to keep it.'
                      : editing
                        ? undefined
                        : 'Leave empty if the server needs none.'
                }
              >
                <input
                  type="password"
                  value={values.password}
                  onChange={(e) => set('password', e.target.value)}
                  autoComplete="new-password"
                  placeholder={editing && saved?.has_password ? '••••••• (unchanged)' : ''}
                  data-testid="conn-password"
                />
              </Field>
            </div>
            {(willDrop || passwordDropped) && (
              <div className="notice notice-warn" role="status" data-testid="conn-password-needed">
                {willDrop ? (
                  <p>
                    <strong>Enter the password again.</strong> The stored password is only ever sent to the server, database and user it was
                    saved for, over TLS at least as strict; saving these changes without a new one removes it.
                  </p>
                ) : (
                  <p>
                    <strong>The stored password was removed</strong> because the server, user or TLS settings changed. Enter it above and save
                    again (leave it empty if the server needs none).
                  </p>
                )}
              </div>
            )}
            <Field label="TLS" error={errors.sslMode}>
              <select value={values.sslMode} onChange={(e) => set('sslMode', e.target.value as ConnectionFormValues['sslMode'])} data-testid="conn-ssl-mode">
                {(Object.keys(SSL_MODE_LABEL) as ConnectionFormValues['sslMode'][]).map((mode) => (
                  <option key={mode} value={mode}>
                    {mode} — {SSL_MODE_LABEL[mode]}
                  </option>
                ))}
              </select>
            </Field>
            {(values.sslMode === 'verify-ca' || values.sslMode === 'verify-full') && (
              <Field label="CA certificate (PEM, optional)" error={errors.sslCa} note="Leave empty to trust the server's usual certificate authorities.">
                <textarea
                  value={values.sslCa}
                  onChange={(e) => set('sslCa', e.target.value)}
                  rows={4}
                  spellCheck={false}
                  placeholder="-----BEGIN CERTIFICATE-----"
                  data-testid="conn-ssl-ca"
                />
              </Field>
            )}
          </>
        )}

        <ReviewModeSelect
          value={review}
          onChange={(mode) => form.setReview(mode ?? 'expensive')}
          testId="conn-review"
        />
        <p className="muted small">
          Queries are shown to you before they run: never, when the database estimates them expensive (a large full scan,
          many rows or a high planner cost), or always. A conversation can override this.
        </p>

        <details className="field">
          <summary>Advanced{values.allowedFunctions.trim() ? ' (functions of your own allowed)' : ''}</summary>
          <Field
            label="Allowed functions of your own"
            note="Comma-separated, e.g. my_fn, public.report_total. Built-in functions need no entry; queries may call no other function you defined, and one listed here may write."
          >
            <input
              value={values.allowedFunctions}
              onChange={(e) => set('allowedFunctions', e.target.value)}
              spellCheck={false}
              autoComplete="off"
              data-testid="conn-allowed-functions"
            />
          </Field>
        </details>

        <ConnectionPolicyFields policy={form.policy} onChange={form.touch} />

        {saveError && <ErrorBox code={saveError.code} message={saveError.message} />}
        {justSaved && (
          <p className="saved-note" role="status" data-testid="connection-saved">
            Saved.
          </p>
        )}
        {test && <TestResultView outcome={test} />}
        {!test && saved?.elevated_privileges && saved.elevated_privileges.length > 0 && <ElevatedWarning privileges={saved.elevated_privileges} />}

        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={busy} data-testid="conn-save">
            {busy ? 'Saving…' : saved ? 'Save changes' : 'Save and test'}
          </button>
          <button
            type="button"
            className="btn"
            disabled={!saved || test?.state === 'running'}
            title={saved ? undefined : 'Save first; the saved settings are tested.'}
            onClick={() => saved && runTest(saved)}
            data-testid="conn-test"
          >
            Test connection
          </button>
          {saved && (
            <Link className="btn btn-ghost" to={paths.schema(saved.id)}>
              Browse schema
            </Link>
          )}
          <Link className="btn btn-ghost" to={paths.connections()}>
            {saved ? 'Done' : 'Cancel'}
          </Link>
        </div>
      </form>
    </div>
  );
}
