import type { Connection, Dialect, ReviewMode } from '@aigis/contracts';
import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link, navigate } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { ErrorBox } from '../../ui/ErrorBox';
import { DIALECT_LABEL, formatBytes } from '../../ui/format';
import {
  DEFAULT_PORTS,
  emptyForm,
  formFromConnection,
  parseConnectionUrl,
  passwordWillBeDropped,
  SSL_MODE_LABEL,
  toConnectionInput,
  validateForm,
  type ConnectionFormValues,
} from './connection-form-model';
import { connectionsApi, type SqliteFiles } from './connections-api';
import { useConnections } from './connections-context';
import { ReviewModeSelect } from '../chat/ReviewModeSelect';
import { ElevatedWarning } from './ElevatedWarning';
import { TestResultView, type TestOutcome } from './TestResultView';
import './connections.css';

type Errors = Partial<Record<keyof ConnectionFormValues, string>>;

/** Add (no id) or edit a connection; after saving, the connection is tested at once. */
export function ConnectionForm({ connectionId }: { connectionId?: string }) {
  const { upsertLocal } = useConnections();
  const [saved, setSaved] = useState<Connection | null>(null);
  const [values, setValues] = useState<ConnectionFormValues>(emptyForm());
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [saveError, setSaveError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const [url, setUrl] = useState('');
  const [urlError, setUrlError] = useState<string | null>(null);
  const [test, setTest] = useState<TestOutcome | null>(null);
  const [justSaved, setJustSaved] = useState(false);
  // Review before run: kept beside the connection fields (it says how queries run, not where the database is).
  const [review, setReview] = useState<ReviewMode>('expensive');
  const [passwordDropped, setPasswordDropped] = useState(false);
  const editing = Boolean(connectionId);
  const willDrop = passwordWillBeDropped(saved, values);

  useEffect(() => {
    if (!connectionId) return;
    let alive = true;
    connectionsApi
      .get(connectionId)
      .then((c) => {
        if (!alive) return;
        setSaved(c);
        setValues(formFromConnection(c));
        setReview(c.review);
      })
      .catch((err) => alive && setLoadError(ApiError.from(err)));
    return () => {
      alive = false;
    };
  }, [connectionId]);

  const set = <K extends keyof ConnectionFormValues>(key: K, value: ConnectionFormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
    setJustSaved(false);
  };

  const setDialect = (dialect: Dialect) =>
    setValues((v) => ({
      ...v,
      dialect,
      // A default port follows the dialect; one the person typed stays.
      port: v.port === '' || Object.values(DEFAULT_PORTS).includes(v.port) ? DEFAULT_PORTS[dialect] : v.port,
      database: v.dialect === 'sqlite' || dialect === 'sqlite' ? '' : v.database,
    }));

  function applyUrl(text: string) {
    setUrl(text);
    if (!text.trim()) return setUrlError(null);
    const parsed = parseConnectionUrl(text);
    if ('error' in parsed) return setUrlError(parsed.error);
    setUrlError(null);
    setValues((v) => ({ ...v, ...parsed.values, name: v.name || parsed.values.name || '' }));
    setErrors({});
  }

  async function runTest(conn: Connection) {
    setTest({ state: 'running' });
    try {
      const result = await connectionsApi.test(conn.id);
      setTest({ state: 'ok', result });
      // The list shows what the last test found (a red warning for an elevated role).
      const tested = { ...conn, elevated_privileges: result.elevated_privileges };
      setSaved(tested);
      upsertLocal(tested);
    } catch (err) {
      setTest({ state: 'failed', error: ApiError.from(err) });
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found = validateForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setSaveError(null);
    try {
      const input = { ...toConnectionInput(values), review };
      const conn = saved ? await connectionsApi.update(saved.id, input) : await connectionsApi.create(input);
      setPasswordDropped(Boolean(saved?.has_password && !conn.has_password && !values.password));
      setSaved(conn);
      upsertLocal(conn);
      setValues((v) => ({ ...formFromConnection(conn), password: '', dialect: v.dialect }));
      setJustSaved(true);
      if (!editing) navigate(paths.editConnection(conn.id), { replace: true });
      void runTest(conn);
    } catch (err) {
      setSaveError(ApiError.from(err));
    } finally {
      setBusy(false);
    }
  }

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
          onChange={(mode) => {
            setReview(mode ?? 'expensive');
            setJustSaved(false);
          }}
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

function Field(props: { label: string; error?: string; note?: string; grow?: boolean; children: ReactNode }) {
  return (
    <label className={`field${props.grow ? ' grow' : ''}`}>
      <span>{props.label}</span>
      {props.children}
      {props.error ? <small className="field-error">{props.error}</small> : props.note ? <small className="muted">{props.note}</small> : null}
    </label>
  );
}

/** SQLite databases are files under the server's SQLITE_ROOT; the server lists them. */
function SqliteFilePicker({ value, onChange, error }: { value: string; onChange(v: string): void; error?: string }) {
  const [files, setFiles] = useState<SqliteFiles | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const id = useId();

  useEffect(() => {
    connectionsApi.sqliteFiles().then(setFiles, (err) => setLoadError(ApiError.from(err)));
  }, []);

  const listed = files?.files ?? [];
  const known = listed.some((f) => f.path === value);
  return (
    <div className="field">
      <label htmlFor={id}>Database file</label>
      {listed.length > 0 ? (
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid="conn-sqlite-file">
          <option value="">Choose a file…</option>
          {!known && value && <option value={value}>{value}</option>}
          {listed.map((f) => (
            <option key={f.path} value={f.path}>
              {f.path} ({formatBytes(f.size_bytes)})
            </option>
          ))}
        </select>
      ) : (
        <input id={id} value={value} onChange={(e) => onChange(e.target.value)} placeholder="file.db" data-testid="conn-sqlite-file" />
      )}
      {error && <small className="field-error">{error}</small>}
      {files && (
        <small className="muted">
          {listed.length > 0 ? 'Files under ' : 'No database files found under '}
          <code>{files.root}</code>
          {listed.length === 0 && ' (the server’s SQLITE_ROOT). Copy a .db/.sqlite file there, or set SQLITE_ROOT.'}
        </small>
      )}
      {loadError && <small className="field-error">Could not list the files: {loadError.message}</small>}
    </div>
  );
}
