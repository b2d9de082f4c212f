import type { AdminUser } from '@aigis/contracts';
import { useState } from 'react';
import { ApiError } from '../../lib/api-error';
import type { Remote } from '../../lib/use-remote';
import { ErrorBox } from '../../ui/ErrorBox';
import { formatDateTime } from '../../ui/format';
import { useAuth } from '../auth/auth-context';
import { adminApi } from './admin-api';
import { AdminTable } from './AdminTable';

/** Every account with its role and whether it may sign in; an admin cannot change their own row. */
export function UsersSection({ users }: { users: Remote<AdminUser[]> }) {
  const { user: me } = useAuth();
  const [error, setError] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function change(id: string, patch: { role?: AdminUser['role']; disabled?: boolean }) {
    setBusy(id);
    setError(null);
    try {
      const updated = await adminApi.updateUser(id, patch);
      users.setData((list) => list.map((u) => (u.id === id ? updated : u)));
    } catch (err) {
      setError(ApiError.from(err));
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="admin-section" aria-labelledby="admin-users">
      <h2 id="admin-users">Users</h2>
      <p className="muted">A disabled user is signed out at once and cannot sign in until enabled again.</p>
      {users.error && <ErrorBox code={users.error.code} message={users.error.message} onRetry={users.refresh} />}
      {error && <ErrorBox code={error.code} message={error.message} />}
      <AdminTable
        testId="admin-users"
        headers={['Email', 'Role', 'Status', 'Since']}
        items={users.data}
        row={(u) => {
          const self = u.id === me?.id;
          return (
            <tr key={u.id} data-testid="admin-user" data-email={u.email}>
              <td className="email">
                {u.email} {self && <span className="badge">you</span>}
              </td>
              <td>
                <select
                  aria-label={`Role of ${u.email}`}
                  value={u.role}
                  disabled={self || busy === u.id}
                  onChange={(e) => void change(u.id, { role: e.target.value as AdminUser['role'] })}
                  data-testid="admin-user-role"
                >
                  <option value="member">member</option>
                  <option value="admin">admin</option>
                </select>
              </td>
              <td>
                <label className="admin-row-actions">
                  <input
                    type="checkbox"
                    checked={!u.disabled}
                    disabled={self || busy === u.id}
                    onChange={(e) => void change(u.id, { disabled: !e.target.checked })}
                    data-testid="admin-user-enabled"
                  />
                  {u.disabled ? 'disabled' : 'active'}
                </label>
              </td>
              <td>{formatDateTime(u.created_at)}</td>
            </tr>
          );
        }}
      />
    </section>
  );
}
