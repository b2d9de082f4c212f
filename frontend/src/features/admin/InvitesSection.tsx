import type { CreatedInvite } from '@aigis/contracts';
import { useCallback, useState } from 'react';
import { paths } from '../../app/routes';
import { ApiError } from '../../lib/api-error';
import { useRemote } from '../../lib/use-remote';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { ErrorBox } from '../../ui/ErrorBox';
import { formatDateTime } from '../../ui/format';
import { adminApi } from './admin-api';
import { AdminTable } from './AdminTable';

const LIFETIMES = [
  { hours: 24, label: '1 day' },
  { hours: 72, label: '3 days' },
  { hours: 168, label: '7 days' },
  { hours: 720, label: '30 days' },
];

/** Single-use sign-up links; the link is shown once, right after it is made (only its hash is stored). */
export function InvitesSection() {
  const invites = useRemote(useCallback(() => adminApi.invites(), []), []);
  const [hours, setHours] = useState(72);
  const [created, setCreated] = useState<CreatedInvite | null>(null);
  const [copied, setCopied] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);

  const shownError = error ?? invites.error;
  const link = created ? window.location.origin + paths.invite(created.token) : '';

  async function create() {
    setError(null);
    setCopied(false);
    try {
      const invite = await adminApi.createInvite(hours);
      setCreated(invite);
      invites.setData((list) => [invite.invite, ...list]);
    } catch (err) {
      setError(ApiError.from(err));
    }
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
    } catch {
      // No clipboard permission: the link stays visible and selectable.
    }
  }

  async function revoke(id: string) {
    try {
      await adminApi.revokeInvite(id);
      await invites.refresh();
    } catch (err) {
      setError(ApiError.from(err));
    }
  }

  return (
    <section className="admin-section" aria-labelledby="admin-invites">
      <h2 id="admin-invites">Invites</h2>
      <p className="muted">Each link creates one account, then stops working. Send it over a channel you trust.</p>
      <div className="admin-inline">
        <label className="field">
          <span>Valid for</span>
          <select value={hours} onChange={(e) => setHours(Number(e.target.value))} data-testid="invite-lifetime">
            {LIFETIMES.map((l) => (
              <option key={l.hours} value={l.hours}>
                {l.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn-primary" onClick={() => void create()} data-testid="invite-create">
          Create invite link
        </button>
      </div>
      {created && (
        <div className="invite-link" data-testid="invite-link">
          <code data-testid="invite-url">{link}</code>
          <button type="button" className="btn btn-small" onClick={() => void copy()} data-testid="invite-copy">
            {copied ? 'Copied' : 'Copy'}
          </button>
        </div>
      )}
      {shownError && <ErrorBox code={shownError.code} message={shownError.message} />}
      {invites.data.length > 0 && (
        <AdminTable
          testId="admin-invites"
          headers={['Created', 'Expires', 'Status', '']}
          items={invites.data}
          row={(i) => (
            <tr key={i.id} data-testid="admin-invite" data-status={i.status}>
              <td>{formatDateTime(i.created_at)}</td>
              <td>{formatDateTime(i.expires_at)}</td>
              <td>
                <span className={`badge${i.status === 'pending' ? ' badge-ok' : ''}`}>{i.status}</span>
                {i.used_by_email && <span className="muted"> by {i.used_by_email}</span>}
              </td>
              <td>
                {i.status === 'pending' && (
                  <ConfirmButton label="Revoke" confirmLabel="Revoke invite" onConfirm={() => revoke(i.id)} className="btn btn-ghost btn-small" testId="invite-revoke" />
                )}
              </td>
            </tr>
          )}
        />
      )}
    </section>
  );
}
