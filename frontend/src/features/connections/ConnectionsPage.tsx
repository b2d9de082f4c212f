import type { Connection } from '@aigis/contracts';
import { useState } from 'react';
import { Link } from '../../app/router';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { ErrorBox } from '../../ui/ErrorBox';
import { DIALECT_LABEL } from '../../ui/format';
import { connectionsApi } from './connections-api';
import { useConnections } from './connections-context';
import { ElevatedWarning } from './ElevatedWarning';
import { TestResultView, type TestOutcome } from './TestResultView';
import './connections.css';

export function ConnectionsPage() {
  const { connections, loading, error, refresh, removeLocal, upsertLocal } = useConnections();
  const [tests, setTests] = useState<Record<string, TestOutcome>>({});
  const [actionError, setActionError] = useState<ApiError | null>(null);

  async function test(id: string) {
    setTests((t) => ({ ...t, [id]: { state: 'running' } }));
    try {
      const result = await connectionsApi.test(id);
      setTests((t) => ({ ...t, [id]: { state: 'ok', result } }));
      const current = connections.find((c) => c.id === id);
      if (current) upsertLocal({ ...current, elevated_privileges: result.elevated_privileges });
    } catch (err) {
      setTests((t) => ({ ...t, [id]: { state: 'failed', error: ApiError.from(err) } }));
    }
  }

  async function remove(id: string) {
    try {
      await connectionsApi.remove(id);
      removeLocal(id);
    } catch (err) {
      setActionError(ApiError.from(err));
    }
  }

  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>Connections</h1>
          <p className="muted">The databases you can ask questions about. Passwords are stored encrypted and never shown again.</p>
        </div>
        <Link className="btn btn-primary" to={paths.newConnection()} data-testid="connection-new">
          Add connection
        </Link>
      </header>

      {error && <ErrorBox code={error.code} message={error.message} onRetry={refresh} />}
      {actionError && <ErrorBox code={actionError.code} message={actionError.message} />}
      {loading && <p className="muted">Loading…</p>}
      {!loading && !error && connections.length === 0 && (
        <div className="empty">
          <p>No connections yet.</p>
          <Link className="btn btn-primary" to={paths.newConnection()}>
            Add your first database
          </Link>
        </div>
      )}

      <ul className="connection-list">
        {connections.map((c) => (
          <li key={c.id} className="connection-item" data-testid="connection-item" data-connection-id={c.id}>
            <div className="connection-main">
              <div className="connection-title">
                <span className={`dialect dialect-${c.dialect}`}>{DIALECT_LABEL[c.dialect]}</span>
                <h2>{c.name}</h2>
                {c.is_demo && <span className="badge">demo</span>}
              </div>
              <p className="connection-target muted">{describeTarget(c)}</p>
            </div>
            <div className="connection-actions">
              <button type="button" className="btn" onClick={() => test(c.id)} data-testid="connection-test">
                Test
              </button>
              <Link className="btn" to={paths.schema(c.id)} data-testid="connection-schema">
                Schema
              </Link>
              <Link className="btn" to={paths.knowledge(c.id)} data-testid="connection-knowledge">
                Knowledge
              </Link>
              <Link className="btn" to={paths.editConnection(c.id)} data-testid="connection-edit">
                Edit
              </Link>
              <ConfirmButton
                label="Delete"
                confirmLabel={`Delete ${c.name}`}
                onConfirm={() => remove(c.id)}
                testId="connection-delete"
                className="btn btn-ghost btn-danger-text"
              />
            </div>
            {c.elevated_privileges && c.elevated_privileges.length > 0 && tests[c.id]?.state !== 'ok' && (
              <div className="connection-test">
                <ElevatedWarning privileges={c.elevated_privileges} compact />
              </div>
            )}
            {tests[c.id] && (
              <div className="connection-test">
                <TestResultView outcome={tests[c.id]} />
              </div>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function describeTarget(c: Connection): string {
  if (c.dialect === 'sqlite') return c.database ?? '';
  const hostPort = `${c.host ?? ''}${c.port ? `:${c.port}` : ''}`;
  const tls = c.ssl_mode === 'verify-full' || c.ssl_mode === 'verify-ca' ? ' · TLS verified' : c.ssl ? ' · TLS' : '';
  return `${c.user ? `${c.user}@` : ''}${hostPort}/${c.database ?? ''}${tls}`;
}
