import type { ElevatedPrivilege } from '@aigis/contracts';
import { describeElevated } from './connection-form-model';

/**
 * The red warning for a role that can leave the database (superuser, server files, programs, granting): the
 * read-only transaction and the SQL guard are then the only things between a query and the server itself.
 */
export function ElevatedWarning({ privileges, compact = false }: { privileges: ElevatedPrivilege[]; compact?: boolean }) {
  return (
    <div className="notice notice-danger" role="alert" data-testid="connection-elevated-warning" data-privileges={privileges.join(',')}>
      <p>
        <strong>Dangerous role: it {describeElevated(privileges)}.</strong>
        {compact
          ? ' Use a read-only role for Aigis.'
          : ' Aigis only runs checked, read-only queries, but with this role one slip past those checks reaches the server itself. Connect with a role that may only SELECT the tables you ask about.'}
      </p>
    </div>
  );
}
