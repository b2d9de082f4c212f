/**
 * The rules the PostgreSQL function allowlist is generated from (postgres-functions.generate.ts) and checked
 * against (test/sql-guard.postgres-functions.test.ts). The guard itself reads only the generated list and
 * the denied families in denylist.ts.
 *
 * A built-in function name is allowed when every SQL-callable overload of it is a plain function, aggregate
 * or window function in pg_catalog (not from an extension), not SECURITY DEFINER, not volatile unless
 * justified below, does not match a denied family (denylist.ts), is not listed as "not for analytics"
 * below, and, when it starts with `pg_`, is listed in PG_PREFIXED_ALLOWED (most `pg_` functions reach
 * files, locks, statistics, replication or server state).
 */

/** Volatile built-ins that are allowed anyway, each with why nothing it does outlives the query. */
export const VOLATILE_ALLOWED: Readonly<Record<string, string>> = {
  random: 'a random number; only this session’s generator state changes',
  random_normal: 'a random number (PostgreSQL 16+)',
  gen_random_uuid: 'a random UUID',
  uuidv4: 'a random UUID (PostgreSQL 18+)',
  uuidv7: 'a time-ordered random UUID (PostgreSQL 18+)',
  clock_timestamp: 'reads the clock',
  timeofday: 'reads the clock',
  current_query: 'returns the text of the statement that calls it',
  pg_relation_size: 'reads how large a relation is ("which tables are largest?")',
  pg_table_size: 'reads how large a table is',
  pg_total_relation_size: 'reads how large a table and its indexes are',
  pg_indexes_size: 'reads how large a table’s indexes are',
  pg_database_size: 'reads how large a database is',
  pg_partition_tree: 'reads the catalog',
  pg_partition_ancestors: 'reads the catalog',
  pg_is_in_recovery: 'reads whether the server is a standby',
  pg_jit_available: 'reads whether JIT is available',
};

/**
 * `pg_` functions that only describe values, types or the catalog objects the role can already see:
 * type and size helpers, object definitions (pg_get_viewdef & co.), visibility and property tests.
 */
export const PG_PREFIXED_ALLOWED: readonly string[] = [
  'pg_typeof',
  'pg_basetype',
  'pg_input_is_valid',
  'pg_input_error_info',
  'pg_size_pretty',
  'pg_size_bytes',
  'pg_column_size',
  'pg_column_compression',
  'pg_collation_for', // COLLATION FOR (expr) is parsed into this call
  'pg_client_encoding',
  'pg_encoding_to_char',
  'pg_char_to_encoding',
  'pg_encoding_max_length',
  'pg_backend_pid',
  'pg_postmaster_start_time',
  'pg_is_in_recovery',
  'pg_jit_available',
  'pg_trigger_depth',
  'pg_has_role',
  'pg_get_keywords',
  'pg_get_viewdef',
  'pg_get_indexdef',
  'pg_get_constraintdef',
  'pg_get_expr',
  'pg_get_functiondef',
  'pg_get_function_arguments',
  'pg_get_function_identity_arguments',
  'pg_get_function_result',
  'pg_get_function_arg_default',
  'pg_get_function_sqlbody',
  'pg_get_triggerdef',
  'pg_get_ruledef',
  'pg_get_userbyid',
  'pg_get_serial_sequence',
  'pg_get_partkeydef',
  'pg_get_partition_constraintdef',
  'pg_get_statisticsobjdef',
  'pg_get_statisticsobjdef_columns',
  'pg_get_statisticsobjdef_expressions',
  'pg_get_catalog_foreign_keys',
  'pg_get_replica_identity_index',
  'pg_describe_object',
  'pg_identify_object',
  'pg_identify_object_as_address',
  'pg_get_object_address',
  'pg_index_column_has_property',
  'pg_index_has_property',
  'pg_indexam_has_property',
  'pg_options_to_table',
  'pg_partition_tree',
  'pg_partition_root',
  'pg_partition_ancestors',
  'pg_relation_size',
  'pg_table_size',
  'pg_total_relation_size',
  'pg_indexes_size',
  'pg_database_size',
  'pg_relation_is_updatable',
  'pg_column_is_updatable',
  'pg_table_is_visible',
  'pg_type_is_visible',
  'pg_function_is_visible',
  'pg_operator_is_visible',
  'pg_opclass_is_visible',
  'pg_opfamily_is_visible',
  'pg_collation_is_visible',
  'pg_conversion_is_visible',
  'pg_statistics_obj_is_visible',
  'pg_ts_config_is_visible',
  'pg_ts_dict_is_visible',
  'pg_ts_parser_is_visible',
  'pg_ts_template_is_visible',
  'pg_my_temp_schema',
  'pg_is_other_temp_schema',
  'pg_timezone_names',
  'pg_timezone_abbrevs',
  'pg_lsn',
  'pg_lsn_cmp',
  'pg_lsn_eq',
  'pg_lsn_ge',
  'pg_lsn_gt',
  'pg_lsn_hash',
  'pg_lsn_hash_extended',
  'pg_lsn_larger',
  'pg_lsn_le',
  'pg_lsn_lt',
  'pg_lsn_mi',
  'pg_lsn_mii',
  'pg_lsn_ne',
  'pg_lsn_pli',
  'pg_lsn_smaller',
  'pg_wal_lsn_diff',
];

/**
 * Built-ins without a `pg_` prefix that are not for analytics: session or server settings, sequences,
 * transaction ids (calling them assigns one), client and server addresses, index maintenance, validators.
 */
export const NOT_FOR_ANALYTICS: Readonly<Record<string, string>> = {
  current_setting: 'reads server settings',
  setseed: 'changes the session’s random seed, which outlives the query',
  currval: 'reads sequence state',
  lastval: 'reads sequence state',
  inet_client_addr: 'reveals network addresses',
  inet_client_port: 'reveals network addresses',
  inet_server_addr: 'reveals network addresses',
  inet_server_port: 'reveals network addresses',
  gin_clean_pending_list: 'maintains an index',
  brin_summarize_new_values: 'maintains an index',
  brin_summarize_range: 'maintains an index',
  brin_desummarize_range: 'maintains an index',
  amvalidate: 'catalog validation',
  plpgsql_validator: 'catalog validation',
  fmgr_c_validator: 'catalog validation',
  fmgr_internal_validator: 'catalog validation',
  fmgr_sql_validator: 'catalog validation',
  currtid2: 'reads physical row positions',
};

/** Name prefixes of built-ins that are not for analytics (transaction ids and snapshots). */
export const NOT_FOR_ANALYTICS_PREFIXES: readonly string[] = ['txid_'];

/**
 * Contrib extensions whose functions reach files, raw pages, shared buffers, locks, statistics, WAL,
 * other servers or table repair. The generator installs those available into a scratch database and
 * records their function names, so field notation (`(x).name`) naming one is refused even though it is
 * not a built-in (extensions install into `public`, where a column could have any name).
 */
export const DANGEROUS_EXTENSIONS: readonly string[] = [
  'adminpack',
  'amcheck',
  'dblink',
  'file_fdw',
  'lo',
  'old_snapshot',
  'pageinspect',
  'pg_buffercache',
  'pg_freespacemap',
  'pg_prewarm',
  'pg_stat_statements',
  'pg_surgery',
  'pg_visibility',
  'pg_walinspect',
  'pgrowlocks',
  'pgstattuple',
  'postgres_fdw',
  'xml2',
];

/** Return types of functions SQL cannot call directly (handlers, triggers, internal support). */
export const UNCALLABLE_RETURN_TYPES: readonly string[] = [
  'internal',
  'trigger',
  'event_trigger',
  'language_handler',
  'fdw_handler',
  'index_am_handler',
  'table_am_handler',
  'tsm_handler',
];

/** TABLESAMPLE methods: the built-in two and contrib's tsm_system_rows / tsm_system_time. */
export const TABLESAMPLE_METHODS: readonly string[] = ['bernoulli', 'system', 'system_rows', 'system_time'];
