import type { Dialect } from '@aigis/contracts';
import { describe, expect, it } from 'vitest';
import { ParserSqlGuard } from '../src/sql-guard/index.js';

/**
 * Hostile statements, by family. Each case lists, per dialect where the family applies, a fragment the
 * reason must contain: the guard must refuse and say what it refused.
 */
type Expectation = Partial<Record<Dialect, string>>;
type Case = [sql: string, expect: Expectation];

const all = (fragment: string): Expectation => ({ postgres: fragment, mysql: fragment, sqlite: fragment });
const NOT_A_QUERY = 'is not allowed: only read-only queries (SELECT, WITH … SELECT, VALUES) can run';

const FAMILIES: Record<string, Case[]> = {
  'writes and DDL': [
    ['INSERT INTO t VALUES (1)', all(`INSERT ${NOT_A_QUERY}`)],
    ['UPDATE t SET a = 1', all(`UPDATE ${NOT_A_QUERY}`)],
    ['dElEtE from t where a = 1', all(`DELETE ${NOT_A_QUERY}`)],
    ['MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE', all('MERGE is not allowed')],
    ['REPLACE INTO t VALUES (1)', { mysql: 'REPLACE is not allowed', sqlite: 'REPLACE is not allowed', postgres: 'could not parse the SQL' }],
    ['TRUNCATE TABLE t', all('TRUNCATE is not allowed')],
    ['CREATE TABLE x (a int)', all('CREATE TABLE is not allowed')],
    ['CREATE TABLE x AS SELECT * FROM t', { postgres: 'CREATE TABLE AS is not allowed', mysql: 'CREATE TABLE is not allowed', sqlite: 'CREATE TABLE is not allowed' }],
    ['CREATE MATERIALIZED VIEW mv AS SELECT 1', { postgres: 'CREATE MATERIALIZED VIEW is not allowed' }],
    ['CREATE OR REPLACE VIEW v AS SELECT 1', all('CREATE VIEW is not allowed')],
    ['ALTER TABLE t ADD COLUMN b int', all('ALTER TABLE is not allowed')],
    ['DROP TABLE t', all('DROP TABLE is not allowed')],
    ['GRANT SELECT ON t TO someone', all('GRANT is not allowed')],
    ['REVOKE SELECT ON t FROM someone', all('REVOKE is not allowed')],
    ['WITH x AS (SELECT 1) DELETE FROM t', all('DELETE is not allowed')],
    ['WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x', all('INSERT is not allowed')],
    ['WITH x AS (SELECT 1) UPDATE t SET a = 2', all('UPDATE is not allowed')],
    ['CREATE FUNCTION f() RETURNS int AS $$ SELECT 1 $$ LANGUAGE sql', { postgres: 'CREATE FUNCTION is not allowed' }],
  ],
  'data-modifying CTEs': [
    ['WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', all('data-modifying WITH (DELETE inside a CTE) is not allowed')],
    ['WITH u AS (UPDATE t SET a = 1 RETURNING a) SELECT * FROM u', all('data-modifying WITH (UPDATE inside a CTE)')],
    ['WITH i AS (INSERT INTO t VALUES (1) RETURNING *) SELECT 1', all('data-modifying WITH (INSERT inside a CTE)')],
    ['SELECT * FROM (WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d) AS s', all('data-modifying WITH (DELETE inside a CTE)')],
    ['SELECT (WITH d AS (DELETE FROM t RETURNING 1) SELECT 1)', all('data-modifying WITH (DELETE inside a CTE)')],
    ['SELECT 1 WHERE EXISTS (WITH d AS (DELETE FROM t RETURNING 1) SELECT 1 FROM d)', all('data-modifying WITH (DELETE inside a CTE)')],
    ['WITH m AS (MERGE INTO t USING s ON true WHEN MATCHED THEN DELETE RETURNING *) SELECT * FROM m', { postgres: 'data-modifying WITH (MERGE inside a CTE)' }],
  ],
  'multiple statements': [
    ['SELECT 1; DELETE FROM t', all('only one statement is allowed (found 2); statement 2 of 2 is DELETE')],
    ['SELECT 1; SELECT 2', all('only one statement is allowed (found 2)')],
    ['SELECT 1;;SELECT 2;', all('only one statement is allowed (found 2)')],
    ["SELECT 'a;b'; DROP TABLE t", all('statement 2 of 2 is DROP TABLE')],
    ['SELECT 1; SELECT 2; UPDATE t SET a = 1', all('only one statement is allowed (found 3); statement 3 of 3 is UPDATE')],
    // MySQL reads `--` as a comment only before whitespace: here it is minus minus, and DROP runs.
    ['SELECT 1 --; DROP TABLE t', { mysql: 'statement 2 of 2 is DROP TABLE' }],
    // SQLite has no `#` comments (MySQL does; PostgreSQL reads # as an operator).
    ['SELECT 1 # ; DROP TABLE t', { sqlite: 'statement 2 of 2 is DROP TABLE', postgres: 'could not parse the SQL' }],
  ],
  'transaction control': [
    ['COMMIT; SELECT 1', all('only one statement is allowed (found 2); statement 1 of 2 is COMMIT')],
    ['BEGIN', all('BEGIN is not allowed')],
    ['ROLLBACK', all('ROLLBACK is not allowed')],
    ['SAVEPOINT s1', all('SAVEPOINT is not allowed')],
    ['RELEASE SAVEPOINT s1', all('RELEASE')],
    ['START TRANSACTION', all('START TRANSACTION is not allowed')],
    ['START TRANSACTION READ WRITE; DELETE FROM t', all('statement 1 of 2 is START TRANSACTION')],
    ['END', { postgres: 'COMMIT is not allowed', sqlite: 'END is not allowed' }],
    ['SET TRANSACTION READ WRITE', { postgres: 'SET is not allowed', mysql: 'SET is not allowed' }],
  ],
  'SELECT INTO': [
    ['SELECT * INTO newt FROM t', { postgres: 'SELECT INTO is not allowed (INTO newt)', sqlite: 'SELECT INTO is not allowed' }],
    ['SELECT a INTO @x FROM t', { mysql: 'SELECT INTO is not allowed (INTO a variable)' }],
    ["SELECT * FROM t INTO OUTFILE '/tmp/x'", { mysql: 'SELECT INTO is not allowed (INTO OUTFILE)' }],
    ["SELECT * INTO DUMPFILE '/tmp/x' FROM t", { mysql: 'SELECT INTO is not allowed (INTO DUMPFILE)' }],
    ["SELECT 1 UNION SELECT a FROM t INTO OUTFILE '/tmp/x'", { mysql: 'SELECT INTO is not allowed' }],
  ],
  'COPY, DO, CALL, PREPARE/EXECUTE, DECLARE': [
    ["COPY t TO '/tmp/x'", all('COPY is not allowed')],
    ['COPY (SELECT 1) TO STDOUT', { postgres: 'COPY is not allowed' }],
    ["COPY t FROM PROGRAM 'id'", { postgres: 'COPY is not allowed' }],
    ['DO $$ BEGIN PERFORM pg_sleep(1); END $$', { postgres: 'DO is not allowed' }],
    ['DO SLEEP(5)', { mysql: 'DO is not allowed' }],
    ['CALL p()', all('CALL is not allowed')],
    ['PREPARE q AS DELETE FROM t', { postgres: 'PREPARE is not allowed' }],
    ["PREPARE s FROM 'DELETE FROM t'", { mysql: 'PREPARE is not allowed' }],
    ['EXECUTE q', { postgres: 'EXECUTE is not allowed', mysql: 'EXECUTE is not allowed' }],
    ['DEALLOCATE q', { postgres: 'DEALLOCATE is not allowed', mysql: 'DEALLOCATE is not allowed' }],
    ['DECLARE c CURSOR FOR SELECT 1', { postgres: 'DECLARE is not allowed', mysql: 'DECLARE is not allowed' }],
    ['FETCH NEXT FROM c', { postgres: 'FETCH is not allowed' }],
  ],
  'LISTEN/NOTIFY, LOCK, VACUUM': [
    ['LISTEN ch', { postgres: 'LISTEN is not allowed' }],
    ["NOTIFY ch, 'x'", { postgres: 'NOTIFY is not allowed' }],
    ["SELECT pg_notify('ch', 'x')", { postgres: 'function pg_notify is not allowed' }],
    ['LOCK TABLE t IN ACCESS EXCLUSIVE MODE', { postgres: 'LOCK is not allowed' }],
    ['LOCK TABLES t READ', { mysql: 'LOCK TABLES is not allowed' }],
    ['UNLOCK TABLES', { mysql: 'UNLOCK TABLES is not allowed' }],
    ['VACUUM', { postgres: 'VACUUM is not allowed', sqlite: 'VACUUM is not allowed' }],
    ['VACUUM FULL t', { postgres: 'VACUUM is not allowed' }],
    ['ANALYZE t', { postgres: 'ANALYZE is not allowed', sqlite: 'ANALYZE is not allowed' }],
    ['OPTIMIZE TABLE t', { mysql: 'OPTIMIZE is not allowed' }],
    ['REINDEX', { sqlite: 'REINDEX is not allowed' }],
  ],
  'SET, RESET, set_config, SHOW': [
    ['SET statement_timeout = 0', { postgres: 'SET is not allowed' }],
    ['SET LOCAL statement_timeout = 0', { postgres: 'SET LOCAL is not allowed' }],
    ['RESET ALL', { postgres: 'RESET is not allowed' }],
    ['RESET statement_timeout', { postgres: 'RESET is not allowed' }],
    ["SELECT set_config('statement_timeout', '0', false)", { postgres: 'function set_config is not allowed' }],
    ["SELECT pg_catalog.set_config('transaction_read_only', 'off', true)", { postgres: 'function set_config is not allowed' }],
    ['SET SESSION max_execution_time = 0', { mysql: 'SET is not allowed' }],
    ['SET @a = 1', { mysql: 'SET is not allowed' }],
    ['SET STATEMENT max_statement_time = 0 FOR SELECT 1', { mysql: 'SET is not allowed' }],
    ['SELECT @a := 1', { mysql: 'assigning user variables' }],
    ['SHOW search_path', { postgres: 'SHOW is not allowed' }],
    ['SHOW TABLES', { mysql: 'SHOW is not allowed' }],
    ['SHOW GRANTS', { mysql: 'SHOW is not allowed' }],
  ],
  EXPLAIN: [
    ['EXPLAIN ANALYZE DELETE FROM t', { postgres: 'EXPLAIN ANALYZE is not allowed', mysql: 'EXPLAIN ANALYZE is not allowed' }],
    ['EXPLAIN (ANALYZE, BUFFERS) SELECT 1', { postgres: 'EXPLAIN ANALYZE is not allowed' }],
    ['explain analyze select 1', { postgres: 'EXPLAIN ANALYZE is not allowed', mysql: 'EXPLAIN ANALYZE is not allowed' }],
    ['EXPLAIN SELECT 1', all('EXPLAIN is not allowed')],
    ['EXPLAIN QUERY PLAN SELECT 1', { sqlite: 'EXPLAIN is not allowed' }],
    ['DESCRIBE t', { mysql: 'DESCRIBE is not allowed' }],
  ],
  'file and large-object functions': [
    ["SELECT pg_read_file('/etc/passwd')", { postgres: 'function pg_read_file is not allowed' }],
    ["SELECT pg_catalog.pg_read_file('/etc/passwd', 0, 100)", { postgres: 'function pg_read_file is not allowed' }],
    ["SELECT \"PG_READ_FILE\"('/etc/passwd')", { postgres: 'function pg_read_file is not allowed' }],
    ["SELECT PG_CATALOG.Pg_Read_Binary_File('/etc/passwd')", { postgres: 'function pg_read_binary_file is not allowed' }],
    ["SELECT * FROM pg_ls_dir('.')", { postgres: 'function pg_ls_dir is not allowed' }],
    ['SELECT * FROM pg_ls_waldir()', { postgres: 'function pg_ls_waldir is not allowed' }],
    ["SELECT * FROM ROWS FROM (pg_ls_tmpdir()) AS x", { postgres: 'function pg_ls_tmpdir is not allowed' }],
    ["SELECT (pg_stat_file('postgresql.conf')).size", { postgres: 'function pg_stat_file is not allowed' }],
    ["SELECT lo_import('/etc/passwd')", { postgres: 'function lo_import is not allowed' }],
    ["SELECT lo_export(1, '/tmp/x')", { postgres: 'function lo_export is not allowed' }],
    ['SELECT lo_get(1)', { postgres: 'function lo_get is not allowed' }],
    ['SELECT loread(0, 100)', { postgres: 'function loread is not allowed' }],
    ["SELECT lowrite(0, 'x')", { postgres: 'function lowrite is not allowed' }],
    ["SELECT LOAD_FILE('/etc/passwd')", { mysql: 'function load_file is not allowed' }],
    ["SELECT `load_file`('/etc/passwd')", { mysql: 'function load_file is not allowed' }],
    ["SELECT a FROM t WHERE b = LOAD_FILE ('/etc/passwd')", { mysql: 'function load_file is not allowed' }],
    ["SELECT LOAD_FILE/* hidden */('/etc/passwd')", { mysql: 'function load_file is not allowed' }],
    ["LOAD DATA INFILE '/etc/passwd' INTO TABLE t", { mysql: 'LOAD DATA is not allowed' }],
    ["LOAD DATA LOCAL INFILE '/etc/passwd' INTO TABLE t", { mysql: 'LOAD DATA is not allowed' }],
    ["LOAD XML INFILE '/tmp/x.xml' INTO TABLE t", { mysql: 'LOAD XML is not allowed' }],
    ["SELECT readfile('/etc/passwd')", { sqlite: 'function readfile is not allowed' }],
    ["SELECT writefile('/tmp/x', 'data')", { sqlite: 'function writefile is not allowed' }],
    ["SELECT edit('text')", { sqlite: 'function edit is not allowed' }],
  ],
  'functions that run SQL text': [
    ["SELECT query_to_xml('select * from pg_authid', true, true, '')", { postgres: 'function query_to_xml is not allowed (runs SQL given as text)' }],
    ["SELECT query_to_xml_and_xmlschema('select 1', true, true, '')", { postgres: 'function query_to_xml_and_xmlschema is not allowed' }],
    ["SELECT table_to_xml('t', true, true, '')", { postgres: 'function table_to_xml is not allowed' }],
    ["SELECT table_to_xmlschema('t', true, true, '')", { postgres: 'function table_to_xmlschema is not allowed' }],
    ["SELECT cursor_to_xml('c', 1, true, true, '')", { postgres: 'function cursor_to_xml is not allowed' }],
    ["SELECT schema_to_xml('public', true, true, '')", { postgres: 'function schema_to_xml is not allowed' }],
    ["SELECT database_to_xml(true, true, '')", { postgres: 'function database_to_xml is not allowed' }],
    ["SELECT * FROM ts_stat('SELECT v FROM t')", { postgres: 'function ts_stat is not allowed' }],
  ],
  'remote databases': [
    ["SELECT * FROM dblink('host=evil', 'SELECT 1') AS t(a int)", { postgres: 'function dblink is not allowed (connects to another database)' }],
    ["SELECT dblink_exec('host=evil', 'DROP TABLE t')", { postgres: 'function dblink_exec is not allowed' }],
    ["SELECT dblink_connect('c', 'host=evil')", { postgres: 'function dblink_connect is not allowed' }],
    ['SELECT postgres_fdw_disconnect_all()', { postgres: 'function postgres_fdw_disconnect_all is not allowed' }],
  ],
  sleeps: [
    ['SELECT pg_sleep(10)', { postgres: 'function pg_sleep is not allowed (sleeps)' }],
    ["SELECT pg_sleep_for('5 minutes')", { postgres: 'function pg_sleep_for is not allowed' }],
    ["SELECT pg_sleep_until(now() + interval '1 hour')", { postgres: 'function pg_sleep_until is not allowed' }],
    ['SELECT * FROM t WHERE pg_catalog.pg_sleep(1) IS NOT NULL', { postgres: 'function pg_sleep is not allowed' }],
    ['SELECT SLEEP(10)', { mysql: 'function sleep is not allowed' }],
    ['SELECT * FROM t WHERE id = 1 AND sleep (5)', { mysql: 'function sleep is not allowed' }],
    ["SELECT BENCHMARK(100000000, MD5('a'))", { mysql: 'function benchmark is not allowed' }],
  ],
  'admin and signals': [
    ['SELECT pg_terminate_backend(123)', { postgres: 'function pg_terminate_backend is not allowed (server administration)' }],
    ['SELECT pg_cancel_backend(pid) FROM pg_stat_activity', { postgres: 'function pg_cancel_backend is not allowed' }],
    ['SELECT pg_reload_conf()', { postgres: 'function pg_reload_conf is not allowed' }],
    ['SELECT pg_rotate_logfile()', { postgres: 'function pg_rotate_logfile is not allowed' }],
    ['SELECT pg_promote()', { postgres: 'function pg_promote is not allowed' }],
    ['SELECT pg_switch_wal()', { postgres: 'function pg_switch_wal is not allowed' }],
    ["SELECT pg_create_restore_point('x')", { postgres: 'function pg_create_restore_point is not allowed' }],
    ["SELECT pg_create_physical_replication_slot('s')", { postgres: 'function pg_create_physical_replication_slot is not allowed' }],
    ["SELECT pg_drop_replication_slot('s')", { postgres: 'function pg_drop_replication_slot is not allowed' }],
    ["SELECT * FROM pg_logical_slot_get_changes('s', NULL, NULL)", { postgres: 'function pg_logical_slot_get_changes is not allowed' }],
    ['SELECT pg_stat_reset()', { postgres: 'function pg_stat_reset is not allowed' }],
    ['KILL 123', { mysql: 'KILL is not allowed' }],
    ['SHUTDOWN', { mysql: 'SHUTDOWN is not allowed' }],
    ['FLUSH PRIVILEGES', { mysql: 'FLUSH is not allowed' }],
  ],
  'sequence writers': [
    ["SELECT nextval('s')", { postgres: 'function nextval is not allowed (changes a sequence)' }],
    ["SELECT setval('s', 1)", { postgres: 'function setval is not allowed' }],
    ["SELECT pg_catalog.nextval('s'::regclass)", { postgres: 'function nextval is not allowed' }],
    ['SELECT NEXTVAL(s)', { mysql: 'function nextval is not allowed' }],
    ['SELECT SETVAL(s, 10)', { mysql: 'function setval is not allowed' }],
    ['SELECT NEXT VALUE FOR s', { mysql: 'NEXT VALUE FOR is not allowed' }],
  ],
  'advisory locks': [
    ['SELECT pg_advisory_lock(1)', { postgres: 'function pg_advisory_lock is not allowed (takes an advisory lock)' }],
    ['SELECT pg_try_advisory_lock(1)', { postgres: 'function pg_try_advisory_lock is not allowed' }],
    ['SELECT pg_advisory_xact_lock(1)', { postgres: 'function pg_advisory_xact_lock is not allowed' }],
    ['SELECT pg_advisory_unlock_all()', { postgres: 'function pg_advisory_unlock_all is not allowed' }],
    ["SELECT GET_LOCK('x', 10)", { mysql: 'function get_lock is not allowed' }],
    ["SELECT RELEASE_LOCK('x')", { mysql: 'function release_lock is not allowed' }],
    ["SELECT IS_FREE_LOCK('x')", { mysql: 'function is_free_lock is not allowed' }],
    ["SELECT IS_USED_LOCK('x')", { mysql: 'function is_used_lock is not allowed' }],
    ['SELECT RELEASE_ALL_LOCKS()', { mysql: 'function release_all_locks is not allowed' }],
  ],
  'locking reads': [
    ['SELECT * FROM t FOR UPDATE', all('locking clause FOR UPDATE is not allowed')],
    ['SELECT * FROM t FOR SHARE', { postgres: 'locking clause FOR SHARE is not allowed', mysql: 'locking clause FOR SHARE is not allowed' }],
    ['SELECT * FROM t FOR NO KEY UPDATE', { postgres: 'locking clause FOR NO KEY UPDATE is not allowed' }],
    ['SELECT * FROM t FOR KEY SHARE', { postgres: 'locking clause FOR KEY SHARE is not allowed' }],
    ['SELECT * FROM t FOR UPDATE NOWAIT', { postgres: 'locking clause FOR UPDATE', mysql: 'locking clause FOR UPDATE' }],
    ['SELECT * FROM t FOR UPDATE SKIP LOCKED', { postgres: 'locking clause FOR UPDATE', mysql: 'locking clause FOR UPDATE' }],
    ['SELECT * FROM (SELECT * FROM t FOR UPDATE) s', { postgres: 'locking clause FOR UPDATE', mysql: 'locking clause FOR UPDATE' }],
    ['SELECT * FROM t WHERE id IN (SELECT id FROM u FOR SHARE)', { postgres: 'locking clause FOR SHARE', mysql: 'locking clause FOR SHARE' }],
    ['SELECT * FROM t LOCK IN SHARE MODE', { mysql: 'locking clause LOCK IN SHARE MODE is not allowed' }],
  ],
  'credential catalogs': [
    ['SELECT rolname, rolpassword FROM pg_authid', { postgres: 'access to pg_authid (credential catalog) is not allowed' }],
    ['SELECT * FROM pg_catalog.pg_authid', { postgres: 'access to pg_authid (credential catalog)' }],
    ['SELECT * FROM "pg_authid"', { postgres: 'access to pg_authid (credential catalog)' }],
    ['SELECT * FROM PG_CATALOG.PG_SHADOW', { postgres: 'access to pg_shadow (credential catalog)' }],
    ['TABLE pg_shadow', { postgres: 'access to pg_shadow' }],
    ['SELECT (SELECT passwd FROM pg_shadow LIMIT 1)', { postgres: 'access to pg_shadow' }],
    ['WITH a AS (SELECT * FROM pg_authid) SELECT * FROM a', { postgres: 'access to pg_authid' }],
    ['SELECT * FROM pg_user_mappings', { postgres: 'access to pg_user_mappings (credential catalog)' }],
    ['SELECT * FROM pg_user_mapping', { postgres: 'access to pg_user_mapping (credential catalog)' }],
    ['SELECT * FROM information_schema.user_mapping_options', { postgres: 'access to user_mapping_options' }],
    ['SELECT * FROM pg_largeobject', { postgres: 'access to pg_largeobject' }],
    ['SELECT * FROM pg_hba_file_rules', { postgres: 'access to pg_hba_file_rules' }],
    ['SELECT * FROM pg_file_settings', { postgres: 'access to pg_file_settings' }],
    ['SELECT User, authentication_string FROM mysql.user', { mysql: 'access to mysql.user (credential catalog) is not allowed' }],
    ['SELECT * FROM `mysql`.`user`', { mysql: 'access to mysql.user (credential catalog)' }],
    ['SELECT * FROM MYSQL.USER', { mysql: 'access to mysql.user' }],
    ['SELECT * FROM mysql.global_priv', { mysql: 'access to mysql.global_priv (credential catalog)' }],
    ['SELECT * FROM mysql.db', { mysql: 'access to mysql.db (MySQL system schema) is not allowed' }],
    ['SELECT * FROM t WHERE x IN (SELECT User FROM mysql.user)', { mysql: 'access to mysql.user' }],
    // node-sql-parser reads `--1` as a comment and never sees mysql.user; MySQL runs it.
    ['SELECT a --1, (SELECT authentication_string FROM mysql.user LIMIT 1)\nFROM t', { mysql: 'access to mysql.user' }],
  ],
  'MySQL executable comments and hints': [
    ['SELECT 1 /*! , SLEEP(5) */', { mysql: 'MySQL executable comments (/*! … */) are not allowed' }],
    ['SELECT /*!50000 SLEEP(5) */ 1', { mysql: 'MySQL executable comments (/*! … */) are not allowed' }],
    ['SELECT 1 /*!*/', { mysql: 'MySQL executable comments (/*! … */) are not allowed' }],
    ['/*M!100100 SELECT SLEEP(5) */ SELECT 1', { mysql: 'MariaDB executable comments (/*M! … */) are not allowed' }],
    ['SELECT /*+ MAX_EXECUTION_TIME(100000000) */ * FROM t', { mysql: 'optimizer hints (/*+ … */) are not allowed' }],
    // Without backslash escapes (NO_BACKSLASH_ESCAPES) the string ends at \' and the comment runs.
    ["SELECT 'x\\' /*! , SLEEP(5) */ , '#'", { mysql: 'MySQL executable comments (/*! … */) are not allowed' }],
    // …and here SLEEP runs under NO_BACKSLASH_ESCAPES although the default reading sees one string.
    ["SELECT 'x\\' , sleep(10) , '#'", { mysql: "read differently depending on the server's sql_mode" }],
  ],
  'SQLite ATTACH, DETACH, PRAGMA, extensions, VACUUM INTO': [
    ["ATTACH DATABASE '/tmp/x.db' AS x", { sqlite: 'ATTACH is not allowed' }],
    ["attach '/tmp/x.db' as x", { sqlite: 'ATTACH is not allowed' }],
    ['DETACH DATABASE x', { sqlite: 'DETACH is not allowed' }],
    ['PRAGMA writable_schema = 1', { sqlite: 'PRAGMA is not allowed' }],
    ['PRAGMA query_only = 0', { sqlite: 'PRAGMA is not allowed' }],
    ['PRAGMA table_info(t)', { sqlite: 'PRAGMA is not allowed' }],
    ["SELECT load_extension('/tmp/evil.so')", { sqlite: 'function load_extension is not allowed' }],
    ["SELECT \"LOAD_EXTENSION\"('/tmp/evil.so')", { sqlite: 'function load_extension is not allowed' }],
    ["SELECT [load_extension]('/tmp/evil.so')", { sqlite: 'function load_extension is not allowed' }],
    ["SELECT `load_extension`('/tmp/evil.so')", { sqlite: 'function load_extension is not allowed' }],
    ["VACUUM INTO '/tmp/copy.db'", { sqlite: 'VACUUM is not allowed' }],
    ["SELECT fts3_tokenizer('simple', x'00')", { sqlite: 'function fts3_tokenizer is not allowed' }],
  ],
  'parse errors and empty input': [
    ['SELEC 1', all('could not parse the SQL')],
    ['SELECT FROM WHERE', all('could not parse the SQL')],
    ['SELECT (1', all('could not parse the SQL')],
    ["SELECT 'abc", all('could not parse the SQL')],
    ['SELECT a FROM t WHERE', all('could not parse the SQL')],
    ['', all('no SQL statement found')],
    ['   \n\t ', all('no SQL statement found')],
    ['-- only a comment', all('no SQL statement found')],
    [';', all('no SQL statement found')],
    ['SELECT 1\u0000; DROP TABLE t', all('NUL character')],
    // Each parser gives up (stack overflow, memory exhausted, parser stack overflow): the guard fails closed.
    [`SELECT ${'('.repeat(20_000)}1${')'.repeat(20_000)}`, all('could not parse the SQL')],
    [`SELECT ${'('.repeat(20_000)}1`, all('could not parse the SQL')],
    [`SELECT 1${' '.repeat(50_000)}`, all('the SQL is too long (50008 characters; at most 50000)')],
  ],
};

const guard = new ParserSqlGuard();

describe('ParserSqlGuard refuses hostile statements, naming what it refused', () => {
  for (const [family, cases] of Object.entries(FAMILIES)) {
    describe(family, () => {
      for (const [sql, expectations] of cases) {
        for (const [dialect, fragment] of Object.entries(expectations) as [Dialect, string][]) {
          it(`${dialect}: ${JSON.stringify(sql.length > 120 ? `${sql.slice(0, 60)}…(${sql.length} characters)` : sql)}`, async () => {
            const verdict = await guard.check(dialect, sql);
            expect(verdict.ok).toBe(false);
            if (!verdict.ok) expect(verdict.reason.toLowerCase()).toContain(fragment.toLowerCase());
          });
        }
      }
    });
  }

  it('gives the exact reasons the product documents', async () => {
    expect(await guard.check('postgres', 'UPDATE t SET a = 1')).toEqual({
      ok: false,
      reason: 'UPDATE is not allowed: only read-only queries (SELECT, WITH … SELECT, VALUES) can run',
    });
    expect(await guard.check('postgres', 'SELECT 1; DELETE FROM t')).toEqual({
      ok: false,
      reason: 'only one statement is allowed (found 2); statement 2 of 2 is DELETE',
    });
  });

  it('refuses an unknown dialect instead of throwing', async () => {
    const verdict = await guard.check('oracle' as Dialect, 'SELECT 1 FROM dual');
    expect(verdict).toEqual({ ok: false, reason: 'unknown SQL dialect oracle' });
  });
});
