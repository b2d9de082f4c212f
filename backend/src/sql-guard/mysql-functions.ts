/**
 * MySQL and MariaDB native functions a read-only query may call: aggregates, window functions, numbers,
 * strings, dates, control flow, JSON, spatial, hashing, information. Anything else called by name (a
 * stored function, a loadable UDF such as lib_mysqludf_sys's sys_exec, a component's locking or keyring
 * functions) is refused unless the connection's owner allows it by name. Reviewed by hand from the MySQL 8.4
 * and MariaDB 11 function references; names are lower case (MySQL compares function names case-insensitively).
 */
const AGGREGATE_AND_WINDOW = `
  any_value avg bit_and bit_or bit_xor count group_concat json_arrayagg json_objectagg max min std stddev
  stddev_pop stddev_samp sum var_pop var_samp variance grouping
  cume_dist dense_rank first_value lag last_value lead nth_value ntile percent_rank rank row_number
  median percentile_cont percentile_disc`;

const NUMERIC = `
  abs acos asin atan atan2 ceil ceiling conv cos cot crc32 crc32c degrees exp floor ln log log10 log2 mod oct
  pi pow power radians rand round sign sin sqrt tan truncate to_number bit_count`;

const STRING = `
  ascii bin bit_length char char_length character_length chr concat concat_ws elt export_set extractvalue field
  find_in_set format from_base64 hex insert instr lcase left length lengthb locate lower lpad ltrim make_set mid
  natural_sort_key octet_length ord position quote regexp_instr regexp_like regexp_replace regexp_substr repeat
  replace reverse right rpad rtrim sformat soundex space strcmp substr substring substring_index to_base64
  to_char trim trim_oracle ucase unhex updatexml upper weight_string`;

const DATE_AND_TIME = `
  adddate addtime add_months convert_tz curdate current_date current_time current_timestamp curtime date datediff
  date_add date_format date_sub day dayname dayofmonth dayofweek dayofyear extract format_pico_time from_days
  from_unixtime get_format hour last_day localtime localtimestamp makedate maketime microsecond minute month
  monthname months_between now period_add period_diff quarter second sec_to_time str_to_date subdate subtime
  sysdate time timediff timestamp timestampadd timestampdiff time_format time_to_sec to_date to_days to_seconds
  trunc unix_timestamp utc_date utc_time utc_timestamp week weekday weekofyear year yearweek`;

const CONTROL_AND_CASTS = `
  if ifnull nullif nvl nvl2 decode_oracle coalesce greatest least isnull interval cast convert default`;

const JSON = `
  json_array json_array_append json_array_insert json_array_intersect json_compact json_contains json_contains_path
  json_depth json_detailed json_equals json_exists json_extract json_insert json_key_value json_keys json_length
  json_loose json_merge json_merge_patch json_merge_preserve json_normalize json_object json_object_filter_keys
  json_object_to_array json_overlaps json_pretty json_query json_quote json_remove json_replace json_schema_valid
  json_schema_validation_report json_search json_set json_storage_free json_storage_size json_table json_type
  json_unquote json_valid json_value`;

const HASHING_AND_UUIDS = `
  aes_encrypt aes_decrypt compress uncompress uncompressed_length md5 sha sha1 sha2 random_bytes kdf
  uuid uuid_short uuid_v4 uuid_v7 sys_guid uuid_to_bin bin_to_uuid is_uuid
  inet_aton inet_ntoa inet6_aton inet6_ntoa is_ipv4 is_ipv4_compat is_ipv4_mapped is_ipv6 format_bytes`;

const INFORMATION = `
  charset coercibility collation connection_id current_role current_user database schema found_rows row_count
  session_user system_user user version rownum icu_version`;

const DYNAMIC_COLUMNS = `column_add column_check column_create column_delete column_exists column_get column_json column_list`;

/** MariaDB sequences: reading the last value is harmless (NEXTVAL and SETVAL are denied). */
const SEQUENCES = `lastval`;

const SPATIAL = `
  area asbinary astext aswkb aswkt boundary buffer centroid contains convexhull crosses dimension disjoint
  endpoint envelope equals exteriorring geomcollfromtext geomcollfromwkb geometrycollection geometrycollectionfromtext
  geometrycollectionfromwkb geometryfromtext geometryfromwkb geometryn geometrytype geomfromtext geomfromwkb glength
  interiorringn intersects isclosed isempty isring issimple linefromtext linefromwkb linestring linestringfromtext
  linestringfromwkb mlinefromtext mlinefromwkb mpointfromtext mpointfromwkb mpolyfromtext mpolyfromwkb
  multilinestring multilinestringfromtext multilinestringfromwkb multipoint multipointfromtext multipointfromwkb
  multipolygon multipolygonfromtext multipolygonfromwkb numgeometries numinteriorrings numpoints overlaps point
  pointfromtext pointfromwkb pointn polyfromtext polyfromwkb polygon polygonfromtext polygonfromwkb srid
  startpoint touches within x y`;

function words(...groups: string[]): string[] {
  return groups.join(' ').split(/\s+/).filter(Boolean);
}

export const MYSQL_FUNCTIONS: ReadonlySet<string> = new Set(
  words(AGGREGATE_AND_WINDOW, NUMERIC, STRING, DATE_AND_TIME, CONTROL_AND_CASTS, JSON, HASHING_AND_UUIDS, INFORMATION, DYNAMIC_COLUMNS, SEQUENCES, SPATIAL),
);

/** Spatial function families named by prefix (ST_Distance, MBRContains, …). */
export const MYSQL_FUNCTION_PREFIXES: readonly string[] = ['st_', 'mbr'];

/**
 * Words that can stand before `(` without calling a function: clause and operator keywords, and type
 * names (CAST(x AS DECIMAL(10, 2)), JSON_TABLE column types).
 */
export const MYSQL_NOT_CALLS: ReadonlySet<string> = new Set(
  words(`
    select from where and or xor not in exists any some all on using join as over by having limit offset union
    intersect except lateral like between is distinct with recursive window escape regexp rlike div when then
    else case values row against match columns index key partition for of order group collate into table
    nested path ordinality returning value straight_join distinctrow sql_no_cache sql_calc_found_rows high_priority
    sql_small_result sql_big_result sql_buffer_result
    decimal dec numeric fixed float double real int integer bigint smallint tinyint mediumint bit nchar varchar
    nvarchar varbinary binary text blob datetime signed unsigned enum set json bool boolean character national`),
);
