import { useCallback } from 'react';
import { useRemote } from '../../lib/use-remote';
import { adminApi } from './admin-api';
import { GrantsSection } from './GrantsSection';
import { InvitesSection } from './InvitesSection';
import { SettingsSection } from './SettingsSection';
import { UsersSection } from './UsersSection';
import './admin.css';

/** The admin's view of the instance: who has an account, who may get one, and what it is set to. */
export function AdminPage() {
  const users = useRemote(useCallback(() => adminApi.users(), []), []);
  return (
    <div className="page page-wide" data-testid="admin-page">
      <header className="page-header">
        <div>
          <h1>Admin</h1>
          <p className="muted">Accounts, invites and the settings of this Aigis.</p>
        </div>
      </header>
      <SettingsSection />
      <UsersSection users={users} />
      <InvitesSection />
      <GrantsSection users={users.data} />
    </div>
  );
}
