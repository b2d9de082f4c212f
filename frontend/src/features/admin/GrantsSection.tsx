import type { AdminUser } from '@aigis/contracts';
import { useCallback, useState, type FormEvent } from 'react';
import { ApiError } from '../../lib/api-error';
import { useRemote } from '../../lib/use-remote';
import { ConfirmButton } from '../../ui/ConfirmButton';
import { ErrorBox } from '../../ui/ErrorBox';
import { adminApi } from './admin-api';
import { AdminTable } from './AdminTable';

/** SQLite files or folders (under SQLITE_ROOT) a member may use besides their own folder. */
export function GrantsSection({ users }: { users: AdminUser[] }) {
  const grants = useRemote(useCallback(() => adminApi.grants(), []), []);
  const [userId, setUserId] = useState('');
  const [path, setPath] = useState('');
  const [error, setError] = useState<ApiError | null>(null);
  const members = users.filter((u) => u.role === 'member');
  const shownError = error ?? grants.error;

  async function add(e: FormEvent) {
    e.preventDefault();
    setError(null);
    try {
      const grant = await adminApi.createGrant(userId, path.trim());
      grants.setData((list) => [...list, grant]);
      setPath('');
    } catch (err) {
      setError(ApiError.from(err));
    }
  }

  async function remove(id: string) {
    try {
      await adminApi.deleteGrant(id);
      grants.setData((list) => list.filter((g) => g.id !== id));
    } catch (err) {
      setError(ApiError.from(err));
    }
  }

  return (
    <section className="admin-section" aria-labelledby="admin-grants">
      <h2 id="admin-grants">SQLite files</h2>
      <p className="muted">
        A member may connect to files in their own folder (<code>SQLITE_ROOT/&lt;user id&gt;/</code>), the demo store, and what you grant here.
        Admins may use any file under SQLITE_ROOT.
      </p>
      <form className="admin-inline" onSubmit={add}>
        <label className="field">
          <span>Member</span>
          <select value={userId} onChange={(e) => setUserId(e.target.value)} required data-testid="grant-user">
            <option value="">Choose…</option>
            {members.map((u) => (
              <option key={u.id} value={u.id}>
                {u.email}
              </option>
            ))}
          </select>
        </label>
        <label className="field grow">
          <span>File or folder under SQLITE_ROOT</span>
          <input value={path} onChange={(e) => setPath(e.target.value)} required placeholder="team/sales.sqlite" data-testid="grant-path" />
        </label>
        <button type="submit" className="btn" data-testid="grant-add">
          Grant
        </button>
      </form>
      {shownError && <ErrorBox code={shownError.code} message={shownError.message} />}
      {grants.data.length > 0 && (
        <AdminTable
          testId="admin-grants"
          items={grants.data}
          row={(g) => (
            <tr key={g.id}>
              <td className="email">{g.user_email}</td>
              <td>
                <code>{g.path}</code>
              </td>
              <td>
                <ConfirmButton label="Remove" confirmLabel="Remove grant" onConfirm={() => remove(g.id)} className="btn btn-ghost btn-small" />
              </td>
            </tr>
          )}
        />
      )}
    </section>
  );
}
