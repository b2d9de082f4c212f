import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deniedFunction } from '../src/sql-guard/denylist.js';
import { collectPostgresFunctions, isBuiltIn, isCallable, PROC_QUERY, type PostgresFunctionLists, type ProcRow } from '../src/sql-guard/postgres-function-catalog.js';
import { NOT_FOR_ANALYTICS, PG_PREFIXED_ALLOWED, VOLATILE_ALLOWED } from '../src/sql-guard/postgres-function-policy.js';
import { POSTGRES_FUNCTIONS } from '../src/sql-guard/postgres-functions.generated.js';
import { createPgDatabase, type PgDatabase } from './support/fixtures.js';
import { TEST_PG_URL } from '@aigis/test-support/env';

/**
 * The checked-in allowlist against the real server's pg_proc. A new PostgreSQL version cannot widen it
 * silently: its new functions are simply not on the list (refused), and a changed property of a listed one
 * (volatility, SECURITY DEFINER, a new overload) fails here until the list is regenerated and reviewed.
 */
const REGENERATE = 'regenerate it: npm run build -w backend && npm run guard:functions -w backend, then review the diff';

let db: PgDatabase;
let client: pg.Client;
let rows: ProcRow[];
let fresh: PostgresFunctionLists;

beforeAll(async () => {
  db = await createPgDatabase('fnlist');
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${db.name}`;
  client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  fresh = await collectPostgresFunctions(client);
  rows = (await client.query<ProcRow>(PROC_QUERY)).rows;
});

afterAll(async () => {
  await client?.end();
  await db?.drop();
});

function overloads(name: string): ProcRow[] {
  return rows.filter((row) => row.proname === name && isBuiltIn(row) && isCallable(row));
}

describe('the PostgreSQL function allowlist matches this server', () => {
  it('was generated for this major version', () => {
    expect(POSTGRES_FUNCTIONS.postgresMajor, `the list is for PostgreSQL ${POSTGRES_FUNCTIONS.postgresMajor}, the server is ${fresh.postgresMajor}: ${REGENERATE}`).toBe(
      fresh.postgresMajor,
    );
  });

  it('is exactly what the policy gives for this server’s pg_proc', () => {
    expect({ allowed: POSTGRES_FUNCTIONS.allowed, denied: POSTGRES_FUNCTIONS.denied }, REGENERATE).toEqual({
      allowed: fresh.allowed,
      denied: fresh.denied,
    });
  });

  it('names only built-in functions SQL can call, none a procedure or SECURITY DEFINER', () => {
    const problems = POSTGRES_FUNCTIONS.allowed.flatMap((name) => {
      const found = overloads(name);
      if (found.length === 0) return [`${name}: no callable built-in of that name`];
      return found.filter((row) => !['f', 'a', 'w'].includes(row.prokind) || row.prosecdef).map((row) => `${name}(${row.argtypes.join(', ')})`);
    });
    expect(problems).toEqual([]);
  });

  it('has no volatile overload that is not individually justified (nextval is not; random and clock_timestamp are)', () => {
    const volatile = POSTGRES_FUNCTIONS.allowed.filter((name) => overloads(name).some((row) => row.provolatile === 'v'));
    expect(volatile.filter((name) => !Object.hasOwn(VOLATILE_ALLOWED, name))).toEqual([]);
    expect(volatile).toEqual(expect.arrayContaining(['random', 'clock_timestamp', 'gen_random_uuid']));
    expect(POSTGRES_FUNCTIONS.allowed).not.toContain('nextval');
  });

  it('holds nothing of a denied family, nothing marked as not for analytics, and no pg_ function outside the reviewed few', () => {
    expect(POSTGRES_FUNCTIONS.allowed.filter((name) => deniedFunction('postgres', name) !== undefined)).toEqual([]);
    expect(POSTGRES_FUNCTIONS.allowed.filter((name) => Object.hasOwn(NOT_FOR_ANALYTICS, name))).toEqual([]);
    expect(POSTGRES_FUNCTIONS.allowed.filter((name) => name.startsWith('pg_') && !PG_PREFIXED_ALLOWED.includes(name))).toEqual([]);
    for (const name of ['pg_read_file', 'pg_ls_dir', 'pg_advisory_lock', 'pg_stat_reset_shared', 'lo_import', 'set_config', 'query_to_xml', 'pg_sleep', 'current_setting', 'txid_current']) {
      expect(POSTGRES_FUNCTIONS.allowed).not.toContain(name);
      expect(POSTGRES_FUNCTIONS.denied).toContain(name);
    }
  });

  it('keeps the analytics families: aggregates, ordered-set and window functions, date, JSON, string, math, arrays, ranges, text search', () => {
    const analytics = [
      'count', 'sum', 'avg', 'string_agg', 'array_agg', 'percentile_cont', 'percentile_disc', 'mode', 'stddev', 'corr', 'regr_slope',
      'row_number', 'rank', 'dense_rank', 'lag', 'lead', 'ntile', 'first_value', 'cume_dist',
      'date_trunc', 'date_part', 'extract', 'to_char', 'to_date', 'age', 'now', 'make_date', 'timezone',
      'jsonb_build_object', 'json_agg', 'jsonb_path_query', 'jsonb_array_elements', 'jsonb_each',
      'lower', 'substring', 'regexp_replace', 'split_part', 'concat_ws', 'format', 'btrim', 'position',
      'round', 'abs', 'sqrt', 'power', 'ln', 'width_bucket', 'random',
      'unnest', 'array_length', 'generate_series', 'lower_inf', 'range_merge', 'host', 'to_tsvector', 'ts_rank', 'xpath',
    ];
    expect(analytics.filter((name) => !POSTGRES_FUNCTIONS.allowed.includes(name))).toEqual([]);
  });

  it('records the functions of the dangerous contrib extensions installed here (dblink, adminpack, pageinspect, …)', () => {
    expect(POSTGRES_FUNCTIONS.extensionsScanned).toEqual(fresh.extensionsScanned);
    if (fresh.extensionsScanned.includes('dblink')) expect(POSTGRES_FUNCTIONS.denied).toEqual(expect.arrayContaining(['dblink', 'dblink_exec', 'dblink_connect']));
    if (fresh.extensionsScanned.includes('pageinspect')) expect(POSTGRES_FUNCTIONS.denied).toContain('get_raw_page');
  });
});
