import type { ElevatedPrivilege } from '@aigis/contracts';
import type { ServerProbe } from '../dialect-adapter.js';
import type { PostgresPool } from './postgres-pool.js';

/** Server version, and whether the role can write or has powers beyond the database (one round trip). */
export async function probePostgres(pool: PostgresPool): Promise<ServerProbe> {
  const client = await pool.checkout(undefined, pool.settings.connectTimeoutMs * 2);
  try {
    const { rows } = await client.query(PROBE_SQL);
    return describeRole(rows[0] as ProbeRow);
  } catch (err) {
    throw pool.ownQueryError(err);
  } finally {
    pool.release(client, false);
  }
}

const PROBE_SQL = `
  WITH rel AS (
    SELECT c.oid FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f') AND n.nspname !~ '^pg_' AND n.nspname <> 'information_schema'
  )
  SELECT current_setting('server_version') AS version,
         current_user AS role,
         r.rolsuper AS superuser,
         (SELECT COALESCE(json_agg(b.rolname ORDER BY b.rolname), '[]') FROM pg_catalog.pg_roles b
            WHERE b.rolname IN ('pg_read_server_files', 'pg_write_server_files', 'pg_execute_server_program')
              AND pg_has_role(current_user, b.oid, 'MEMBER')) AS server_roles,
         r.rolcreaterole AS create_role,
         current_setting('default_transaction_read_only') = 'on' AS default_read_only,
         pg_is_in_recovery() AS in_recovery,
         has_database_privilege(current_database(), 'CREATE') AS database_create,
         (SELECT COALESCE(json_agg(nspname ORDER BY nspname), '[]') FROM pg_catalog.pg_namespace
            WHERE nspname !~ '^pg_' AND nspname <> 'information_schema' AND has_schema_privilege(oid, 'CREATE')) AS create_schemas,
         (SELECT count(*) FROM rel WHERE has_table_privilege(rel.oid, 'INSERT')) AS "INSERT",
         (SELECT count(*) FROM rel WHERE has_table_privilege(rel.oid, 'UPDATE')) AS "UPDATE",
         (SELECT count(*) FROM rel WHERE has_table_privilege(rel.oid, 'DELETE')) AS "DELETE",
         (SELECT count(*) FROM rel WHERE has_table_privilege(rel.oid, 'TRUNCATE')) AS "TRUNCATE"
  FROM pg_catalog.pg_roles r WHERE r.rolname = current_user`;

interface ProbeRow {
  version: string;
  role: string;
  superuser: boolean;
  server_roles: string[];
  create_role: boolean;
  default_read_only: boolean;
  in_recovery: boolean;
  database_create: boolean;
  create_schemas: string[];
  INSERT: number;
  UPDATE: number;
  DELETE: number;
  TRUNCATE: number;
}

/** Superuser, or a member of the roles that read/write server files and run programs (COPY … PROGRAM). */
export function elevatedPostgresPrivileges(row: Pick<ProbeRow, 'superuser' | 'server_roles' | 'create_role'>): ElevatedPrivilege[] {
  if (row.superuser) return ['superuser', 'read_server_files', 'write_server_files', 'run_server_programs', 'grant_privileges'];
  const found: ElevatedPrivilege[] = [];
  if (row.server_roles.includes('pg_read_server_files')) found.push('read_server_files');
  if (row.server_roles.includes('pg_write_server_files')) found.push('write_server_files');
  if (row.server_roles.includes('pg_execute_server_program')) found.push('run_server_programs');
  if (row.create_role) found.push('grant_privileges');
  return found;
}

/** Whether the role can change anything, and the reasons in words. */
export function describeRole(row: ProbeRow): ServerProbe {
  const serverVersion = `PostgreSQL ${row.version}`;
  const elevatedPrivileges = elevatedPostgresPrivileges(row);
  if (row.in_recovery) {
    return { serverVersion, readOnlyRole: true, elevatedPrivileges, warnings: [] };
  }
  const powers: string[] = [];
  if (row.superuser) powers.push('it is a superuser');
  const tablePrivileges = (['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE'] as const)
    .filter((p) => Number(row[p]) > 0)
    .map((p) => `${p} on ${row[p]} table${Number(row[p]) === 1 ? '' : 's'}`);
  if (tablePrivileges.length) powers.push(tablePrivileges.join(', '));
  if (row.database_create) powers.push('CREATE on the database');
  if (row.create_schemas.length) powers.push(`CREATE in schema ${row.create_schemas.join(', ')}`);
  if (powers.length === 0) return { serverVersion, readOnlyRole: true, elevatedPrivileges, warnings: [] };
  const warnings = [`this role can write (${powers.join('; ')}); Aigis only reads, but a read-only role is safer`];
  if (row.default_read_only) {
    warnings.push('default_transaction_read_only is on for this role, but any session can switch it off');
  }
  return { serverVersion, readOnlyRole: false, elevatedPrivileges, warnings };
}
