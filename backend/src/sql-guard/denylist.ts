import type { Dialect } from '@aigis/contracts';

/**
 * Functions and relations a read-only query must not touch, per dialect. Names are matched lower-cased
 * (quoted and schema-qualified forms included), so `"PG_READ_FILE"` and `pg_catalog.pg_read_file` both hit.
 * Writes through user-defined functions are not listed: layer 2 (the READ ONLY transaction) stops those.
 */
interface NameRule {
  match: 'exact' | 'prefix' | 'contains';
  names: readonly string[];
  /** Why, shown to the user: "function pg_read_file is not allowed (reads server files)". */
  why: string;
}

const POSTGRES_FUNCTIONS: readonly NameRule[] = [
  { match: 'prefix', names: ['pg_read_'], why: 'reads server files' },
  { match: 'exact', names: ['pg_stat_file', 'pg_logdir_ls', 'pg_current_logfile', 'pg_relation_filepath', 'pg_tablespace_location'], why: 'reads server files' },
  // pg_ls_dir, pg_ls_logdir, pg_ls_waldir, pg_ls_tmpdir, pg_ls_archive_statusdir, …; adminpack's pg_file_write & co.
  { match: 'prefix', names: ['pg_ls_', 'pg_file_'], why: 'reads or writes server files' },
  { match: 'prefix', names: ['lo_'], why: 'large-object function' },
  { match: 'exact', names: ['loread', 'lowrite'], why: 'large-object function' },
  // query_to_xml(_and_xmlschema), table_to_xml…, cursor_to_xml…, schema_to_xml…, database_to_xml…; ts_stat and
  // ts_rewrite take a query as text too. Each runs SQL the guard never sees.
  {
    match: 'prefix',
    names: ['query_to_xml', 'table_to_xml', 'cursor_to_xml', 'schema_to_xml', 'database_to_xml'],
    why: 'runs SQL given as text',
  },
  { match: 'exact', names: ['ts_stat', 'ts_rewrite'], why: 'runs SQL given as text' },
  // tablefunc: crosstab(text), crosstab2/3/4, connectby(…) run the SQL text they are given.
  { match: 'prefix', names: ['crosstab', 'connectby'], why: 'runs SQL given as text' },
  { match: 'prefix', names: ['dblink', 'postgres_fdw'], why: 'connects to another database' },
  { match: 'prefix', names: ['pg_sleep'], why: 'sleeps' },
  {
    match: 'exact',
    names: [
      'pg_terminate_backend',
      'pg_cancel_backend',
      'pg_reload_conf',
      'pg_rotate_logfile',
      'pg_rotate_logfile_old',
      'pg_promote',
      'pg_switch_wal',
      'pg_switch_xlog',
      'pg_create_restore_point',
      'pg_start_backup',
      'pg_stop_backup',
      'pg_backup_start',
      'pg_backup_stop',
      'pg_wal_replay_pause',
      'pg_wal_replay_resume',
      'pg_xlog_replay_pause',
      'pg_xlog_replay_resume',
      'pg_log_backend_memory_contexts',
      'pg_log_standby_snapshot',
      'pg_import_system_collations',
      'pg_stat_statements_reset',
      'pg_prewarm',
      'pg_logical_emit_message',
      'pg_sync_replication_slots',
      'pg_export_snapshot',
      'pg_extension_config_dump',
      'pg_nextoid',
      'pg_stop_making_pinned_objects',
      'pg_stat_clear_snapshot',
      'pg_stat_force_next_flush',
      'gin_clean_pending_list',
      'brin_summarize_new_values',
      'brin_summarize_range',
      'brin_desummarize_range',
    ],
    why: 'server administration',
  },
  // pg_create_physical_replication_slot, pg_drop_replication_slot, pg_replication_slot_advance, pg_copy_*_slot, …
  { match: 'contains', names: ['replication_slot'], why: 'replication-slot function' },
  {
    match: 'prefix',
    names: ['pg_logical_', 'pg_replication_origin_', 'pg_stat_reset', 'binary_upgrade_', 'pg_create_', 'pg_drop_', 'pg_copy_', 'pg_wal_replay_', 'pg_log_'],
    why: 'server administration',
  },
  { match: 'exact', names: ['pg_notify'], why: 'sends a notification' },
  { match: 'exact', names: ['nextval', 'setval'], why: 'changes a sequence' },
  { match: 'prefix', names: ['pg_advisory', 'pg_try_advisory'], why: 'takes an advisory lock' },
  { match: 'exact', names: ['set_config'], why: 'changes a server setting' },
  { match: 'exact', names: ['pg_current_xact_id', 'txid_current'], why: 'assigns a transaction id' },
  // contrib: raw pages and buffers of any table (pg_authid's included), row locks, table repair.
  { match: 'exact', names: ['get_raw_page', 'pg_buffercache_pages', 'pgrowlocks', 'heap_force_kill', 'heap_force_freeze'], why: 'reads or repairs raw table storage' },
];

const MYSQL_FUNCTIONS: readonly NameRule[] = [
  { match: 'exact', names: ['load_file'], why: 'reads server files' },
  { match: 'exact', names: ['sleep', 'benchmark'], why: 'sleeps or burns CPU on purpose' },
  {
    match: 'exact',
    names: ['get_lock', 'release_lock', 'release_all_locks', 'is_free_lock', 'is_used_lock'],
    why: 'takes or inspects a named lock',
  },
  {
    match: 'exact',
    names: [
      'master_pos_wait',
      'source_pos_wait',
      'master_gtid_wait',
      'wait_for_executed_gtid_set',
      'wait_until_sql_thread_after_gtids',
    ],
    why: 'waits on replication',
  },
  // lib_mysqludf_sys, the usual way a compromised server runs shell commands.
  { match: 'exact', names: ['sys_exec', 'sys_eval'], why: 'runs a shell command' },
  // MariaDB sequences.
  { match: 'exact', names: ['nextval', 'setval'], why: 'changes a sequence' },
];

const SQLITE_FUNCTIONS: readonly NameRule[] = [
  { match: 'exact', names: ['load_extension'], why: 'loads native code' },
  // The CLI's fileio and zipfile extensions, in case the library was built with them.
  { match: 'exact', names: ['readfile', 'writefile', 'edit', 'fsdir', 'zipfile'], why: 'reads or writes files' },
  // With two arguments it registers a tokenizer from a raw pointer.
  { match: 'exact', names: ['fts3_tokenizer'], why: 'registers native code' },
];

const FUNCTIONS: Record<Dialect, readonly NameRule[]> = {
  postgres: POSTGRES_FUNCTIONS,
  mysql: MYSQL_FUNCTIONS,
  sqlite: SQLITE_FUNCTIONS,
};

const POSTGRES_RELATIONS: readonly NameRule[] = [
  {
    match: 'exact',
    // pg_subscription.subconninfo and user mapping options can hold passwords.
    names: ['pg_authid', 'pg_shadow', 'pg_user_mappings', 'pg_user_mapping', 'user_mapping_options', 'pg_subscription'],
    why: 'credential catalog',
  },
  { match: 'exact', names: ['pg_largeobject'], why: 'large-object storage' },
  { match: 'exact', names: ['pg_hba_file_rules', 'pg_ident_file_mappings', 'pg_file_settings'], why: 'server configuration files' },
  // Raw sampled values of every column, including tables the role may not read.
  { match: 'exact', names: ['pg_statistic'], why: 'raw column statistics' },
  // Other sessions' SQL text (the app's own included) and the server's settings (paths, libraries).
  { match: 'exact', names: ['pg_stat_activity', 'pg_stat_statements', 'pg_settings', 'pg_config'], why: 'server activity and settings' },
];

/** MySQL/MariaDB: other sessions' statements (information_schema.processlist, performance_schema). */
const MYSQL_ACTIVITY_TABLES = new Set(['processlist']);

/** MySQL/MariaDB tables in the `mysql` schema that hold accounts and password hashes. */
const MYSQL_CREDENTIAL_TABLES = new Set(['user', 'global_priv', 'password_history', 'slave_master_info', 'slave_relay_log_info']);

function matches(rule: NameRule, name: string): boolean {
  switch (rule.match) {
    case 'exact':
      return rule.names.includes(name);
    case 'prefix':
      return rule.names.some((prefix) => name.startsWith(prefix));
    case 'contains':
      return rule.names.some((part) => name.includes(part));
  }
}

/** Why calling `name` is refused in `dialect`, or undefined when it is allowed. */
export function deniedFunction(dialect: Dialect, name: string): string | undefined {
  const lower = name.toLowerCase();
  return FUNCTIONS[dialect].find((rule) => matches(rule, lower))?.why;
}

/**
 * Why reading `schema.name` is refused, with the name to show, or undefined when it is allowed.
 * PostgreSQL catalogs are matched whatever the schema: pg_catalog comes first on the search path anyway.
 * MySQL: the whole `mysql` schema (accounts, grants, replication credentials, server internals) is refused.
 */
export function deniedRelation(
  dialect: Dialect,
  schema: string | null | undefined,
  name: string,
): { shown: string; why: string } | undefined {
  const lower = name.toLowerCase();
  if (dialect === 'postgres') {
    const rule = POSTGRES_RELATIONS.find((r) => matches(r, lower));
    return rule ? { shown: lower, why: rule.why } : undefined;
  }
  if (dialect === 'mysql' && schema?.toLowerCase() === 'mysql') {
    return { shown: `mysql.${lower}`, why: MYSQL_CREDENTIAL_TABLES.has(lower) ? 'credential catalog' : 'MySQL system schema' };
  }
  if (dialect === 'mysql' && (schema?.toLowerCase() === 'performance_schema' || (schema?.toLowerCase() === 'information_schema' && MYSQL_ACTIVITY_TABLES.has(lower)))) {
    return { shown: `${schema!.toLowerCase()}.${lower}`, why: 'server activity' };
  }
  return undefined;
}
