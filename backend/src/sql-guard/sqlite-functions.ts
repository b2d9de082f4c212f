/**
 * SQLite functions a read-only query may call: the built-in scalar, aggregate, window, date, math and JSON
 * functions of the SQLite that better-sqlite3 bundles (`pragma_function_list`, checked in
 * test/sql-guard.sqlite-functions.test.ts), and the side-effect-free table-valued functions. Not on it:
 * load_extension, fts3_tokenizer (registers native code), sqlite_log, the FTS3 `optimize` function (it
 * rewrites the index), FTS/R-tree internals, and the CLI's file functions (readfile, writefile, edit, fsdir).
 */
const SCALAR_AND_AGGREGATE = `
  abs acos acosh asin asinh atan atan2 atanh avg ceil ceiling changes char coalesce concat concat_ws cos cosh count
  cume_dist current_date current_time current_timestamp date datetime degrees dense_rank exp first_value floor
  format glob group_concat hex if ifnull iif instr julianday lag last_insert_rowid last_value lead length like
  likelihood likely ln log log10 log2 lower ltrim max median min mod nth_value ntile nullif octet_length
  percent_rank percentile percentile_cont percentile_disc pi pow power printf quote radians random randomblob rank
  replace round row_number rtrim sign sin sinh soundex sqlite_source_id sqlite_version sqrt strftime string_agg substr
  substring subtype sum tan tanh time timediff total total_changes trim trunc typeof unhex unicode unistr unistr_quote
  unixepoch unlikely upper zeroblob
  json json_array json_array_insert json_array_length json_error_position json_extract json_group_array
  json_group_object json_insert json_object json_patch json_pretty json_quote json_remove json_replace json_set
  json_type json_valid jsonb jsonb_array jsonb_array_insert jsonb_extract jsonb_group_array jsonb_group_object
  jsonb_insert jsonb_object jsonb_patch jsonb_remove jsonb_replace jsonb_set
  bm25 highlight snippet match matchinfo offsets
  geopoly_area geopoly_bbox geopoly_blob geopoly_ccw geopoly_contains_point geopoly_group_bbox geopoly_json
  geopoly_overlap geopoly_regular geopoly_svg geopoly_within geopoly_xform`;

/** Table-valued functions (in FROM) that only read; the pragma ones describe the schema, never change it. */
const TABLE_VALUED = `
  json_each json_tree jsonb_each jsonb_tree generate_series
  pragma_table_info pragma_table_xinfo pragma_table_list pragma_index_list pragma_index_info pragma_index_xinfo
  pragma_foreign_key_list pragma_collation_list`;

function words(...groups: string[]): string[] {
  return groups.join(' ').split(/\s+/).filter(Boolean);
}

export const SQLITE_FUNCTIONS: ReadonlySet<string> = new Set(words(SCALAR_AND_AGGREGATE, TABLE_VALUED));

/** Words that can stand before `(` without calling a function: SQLite keywords (CAST, IN, OVER, …). */
export const SQLITE_NOT_CALLS: ReadonlySet<string> = new Set(
  words(`
    select from where and or not in exists on using join as over by having limit offset union intersect except
    like glob regexp between is distinct with recursive window filter escape when then else case values all
    materialized partition order group collate cast indexed raise returning into table`),
);

/**
 * PRAGMA table-valued functions name an eponymous table, so `FROM pragma_database_list` (no parentheses)
 * runs one too: any `pragma_…` name outside TABLE_VALUED is refused wherever it appears.
 */
export const SQLITE_PRAGMA_PREFIX = 'pragma_';
