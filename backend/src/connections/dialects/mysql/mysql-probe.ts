import type { ElevatedPrivilege } from '@aigis/contracts';
import type { ServerProbe } from '../dialect-adapter.js';
import { type MysqlPool, run } from './mysql-pool.js';

/** Server flavour and version, and whether the account can write (SHOW GRANTS) or the server is read-only. */
export async function probeMysql(pool: MysqlPool): Promise<ServerProbe> {
  const conn = await pool.checkout(undefined, pool.settings.connectTimeoutMs * 2);
  try {
    const { flavor, version } = await pool.serverFlavor(conn);
    const [[readOnlyServer]] = (await run(conn, 'SELECT @@global.read_only')).rows as unknown[][];
    const grants = (await run(conn, 'SHOW GRANTS')).rows.map((r) => String((r as unknown[])[0]));
    const serverVersion = flavor === 'mariadb' ? `MariaDB ${version.replace(/-MariaDB.*$/i, '')}` : `MySQL ${version}`;
    return describeGrants(serverVersion, grants, Number(readOnlyServer) === 1);
  } catch (err) {
    throw pool.ownQueryError(err);
  } finally {
    conn.release();
  }
}

// Privileges that let an account change data or schema (SHOW GRANTS spells them like this on MySQL and MariaDB).
const WRITE_PRIVILEGES = [
  'ALL PRIVILEGES',
  'ALL',
  'INSERT',
  'UPDATE',
  'DELETE',
  'DELETE HISTORY',
  'CREATE',
  'DROP',
  'ALTER',
  'INDEX',
  'CREATE VIEW',
  'CREATE ROUTINE',
  'ALTER ROUTINE',
  'TRIGGER',
  'EVENT',
  'FILE',
  'SUPER',
];

/** SUPER, FILE, ALL PRIVILEGES on *.* and GRANT OPTION: ways out of the database (files, admin, granting). */
export function elevatedMysqlPrivileges(grants: string[]): ElevatedPrivilege[] {
  const found = new Set<ElevatedPrivilege>();
  for (const line of grants) {
    const m = /^GRANT\s+(.+?)\s+ON\s+(?:(?:TABLE|FUNCTION|PROCEDURE)\s+)?(\S+)\s+TO\s/i.exec(line);
    if (!m) continue;
    const privileges = m[1].replace(/\([^)]*\)/g, '').split(',').map((p) => p.trim().toUpperCase());
    const global = m[2] === '*.*';
    if (global && privileges.some((p) => p === 'ALL' || p === 'ALL PRIVILEGES')) {
      ['superuser', 'read_server_files', 'write_server_files'].forEach((p) => found.add(p as ElevatedPrivilege));
    }
    if (privileges.includes('SUPER')) found.add('superuser');
    if (privileges.includes('FILE')) ['read_server_files', 'write_server_files'].forEach((p) => found.add(p as ElevatedPrivilege));
    if (/\bWITH\s+GRANT\s+OPTION\b/i.test(line) || privileges.includes('GRANT OPTION')) found.add('grant_privileges');
  }
  const order: ElevatedPrivilege[] = ['superuser', 'read_server_files', 'write_server_files', 'run_server_programs', 'grant_privileges'];
  return order.filter((p) => found.has(p));
}

/** Reads SHOW GRANTS: can this account write anywhere? The warning names what it may do and where. */
export function describeGrants(serverVersion: string, grants: string[], serverReadOnly: boolean): ServerProbe {
  const elevatedPrivileges = elevatedMysqlPrivileges(grants);
  const found: string[] = [];
  for (const line of grants) {
    const m = /^GRANT\s+(.+?)\s+ON\s+(?:(?:TABLE|FUNCTION|PROCEDURE)\s+)?(\S+)\s+TO\s/i.exec(line);
    if (!m) continue;
    const privileges = m[1]
      .replace(/\([^)]*\)/g, '') // column lists: SELECT (a, b)
      .split(',')
      .map((p) => p.trim().toUpperCase())
      .filter((p) => WRITE_PRIVILEGES.includes(p));
    if (privileges.length) found.push(`${privileges.join(', ')} on ${m[2]}`);
  }
  if (found.length === 0) return { serverVersion, readOnlyRole: true, elevatedPrivileges, warnings: [] };
  if (serverReadOnly && !found.some((f) => /ALL|SUPER/.test(f))) {
    return { serverVersion, readOnlyRole: true, elevatedPrivileges, warnings: ['the server runs read-only (read_only = ON)'] };
  }
  return {
    serverVersion,
    readOnlyRole: false,
    elevatedPrivileges,
    warnings: [`this account can write (${found.join('; ')}); Aigis only reads, but a read-only account is safer`],
  };
}
