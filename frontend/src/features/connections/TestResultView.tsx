import type { ConnectionTestResult } from '@aigis/contracts';
import { ApiError } from '../../lib/api-error';
import { ErrorBox } from '../../ui/ErrorBox';
import { ElevatedWarning } from './ElevatedWarning';

export type TestOutcome = { state: 'running' } | { state: 'ok'; result: ConnectionTestResult } | { state: 'failed'; error: ApiError };

/** The answer of "Test": version and latency, and a warning when the credential could write. */
export function TestResultView({ outcome }: { outcome: TestOutcome }) {
  if (outcome.state === 'running') {
    return (
      <p className="test-result muted" role="status" data-testid="connection-test-result">
        Testing…
      </p>
    );
  }
  if (outcome.state === 'failed') {
    return (
      <div data-testid="connection-test-result" data-ok="false">
        <ErrorBox
          code={outcome.error.code}
          message={outcome.error.message}
          hint="Check host, port, database, user and password (and SSL), then test again."
        />
      </div>
    );
  }
  const r = outcome.result;
  const canWrite = r.read_only_role === false;
  return (
    <div className="test-result" role="status" data-testid="connection-test-result" data-ok="true">
      <p className="test-ok">
        <span className="dot dot-ok" aria-hidden /> Connected · <strong>{r.server_version}</strong> · {Math.round(r.latency_ms)} ms
      </p>
      {r.elevated_privileges?.length > 0 && <ElevatedWarning privileges={r.elevated_privileges} />}
      {(canWrite || r.warnings?.length > 0) && (
        <div className="notice notice-warn" data-testid="connection-write-warning">
          {canWrite && (
            <p>
              <strong>This credential can write to the database.</strong> Aigis only ever runs read-only queries inside a
              rolled-back read-only transaction, but a dedicated read-only role is the safer choice, e.g.{' '}
              <code>GRANT SELECT</code> on the tables you want to ask about, and nothing else.
            </p>
          )}
          {/* The server's details (which privileges, and where) under the headline above. */}
          {r.warnings?.map((w) => (
            <p key={w} className={canWrite ? 'small muted' : undefined}>
              {asSentence(w)}
            </p>
          ))}
        </div>
      )}
    </div>
  );
}

/** The server words warnings as clauses ("this role can write (…)"); shown as sentences. */
function asSentence(text: string): string {
  const t = text.trim();
  return `${t.charAt(0).toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}
