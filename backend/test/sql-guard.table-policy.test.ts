import type { Dialect } from '@aigis/contracts';
import { describe, expect, it } from 'vitest';
import { ParserSqlGuard } from '../src/sql-guard/index.js';
import type { TablePolicy } from '../src/sql-guard/table-policy.js';
import { parseTableEntry as parsePolicyEntry } from '@aigis/contracts';
import { tableVisible, compilePolicy } from '../src/sql-guard/table-policy.js';

/**
 * The table policy as an attacker probes it: every way a statement can name an excluded table, or one
 * outside the allowlist, in each dialect. A case is [sql, fragment of the refusal] or [sql, null] for a
 * statement the policy must let through (so the refusals are not just "refuse everything").
 */
const guard = new ParserSqlGuard();
type Case = [sql: string, refusal: string | null];

const EXCLUDED: TablePolicy = { allowed: [], excluded: ['secret', 'hr.*', 'shop.payroll'] };
const ALLOWED: TablePolicy = { allowed: ['orders', 'customers', 'shop.items'], excluded: [] };

async function verdict(dialect: Dialect, sql: string, tablePolicy: TablePolicy, defaultSchema?: string) {
  return guard.check(dialect, sql, { tablePolicy, defaultSchema });
}

async function expectCases(dialect: Dialect, policy: TablePolicy, cases: Case[], defaultSchema?: string) {
  for (const [sql, refusal] of cases) {
    const result = await verdict(dialect, sql, policy, defaultSchema);
    if (refusal === null) expect(result, sql).toMatchObject({ ok: true });
    else expect(result.ok ? 'accepted' : result.reason, sql).toContain(refusal);
  }
}

const excludedEverywhere: Case[] = [
  ['SELECT * FROM secret', 'table secret is excluded'],
  ['select * from SECRET', 'is excluded'],
  ['SELECT * FROM orders o JOIN secret s ON s.id = o.id', 'is excluded'],
  ['SELECT * FROM orders WHERE id IN (SELECT id FROM secret)', 'is excluded'],
  ['SELECT * FROM orders WHERE EXISTS (SELECT 1 FROM secret WHERE secret.id = orders.id)', 'is excluded'],
  ['SELECT (SELECT max(id) FROM secret) AS m FROM orders', 'is excluded'],
  ['SELECT id FROM orders UNION SELECT id FROM secret', 'is excluded'],
  ['SELECT id FROM orders EXCEPT SELECT id FROM secret', 'is excluded'],
  ['SELECT * FROM (SELECT * FROM (SELECT * FROM secret) a) b', 'is excluded'],
  // A CTE that reads it, and one that takes its name (read either way: fail closed).
  ['WITH x AS (SELECT * FROM secret) SELECT * FROM x', 'is excluded'],
  ['WITH secret AS (SELECT 1 AS id) SELECT * FROM secret', 'is excluded'],
  ['WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r, secret', 'is excluded'],
  ['SELECT * FROM hr.salaries', 'is excluded'],
  ['SELECT * FROM orders', null],
  ['SELECT secretary FROM orders', null],
];

const catalogs: Record<Dialect, Case[]> = {
  postgres: [
    ['SELECT column_name FROM information_schema.columns', 'system catalog'],
    ['SELECT * FROM pg_catalog.pg_attribute', 'system catalog'],
    ['SELECT * FROM pg_class', 'system catalog'],
    ['SELECT most_common_vals FROM pg_stats', 'system catalog'],
    ['SELECT * FROM "pg_catalog"."pg_tables"', 'system catalog'],
    ["SELECT col_description('secret'::regclass, 1)", 'table policy'],
    ["SELECT pg_total_relation_size('secret')", 'pg_total_relation_size is not allowed on a connection with a table policy'],
    ["SELECT * FROM json_populate_record(null::secret, '{}')", 'type secret names an excluded table'],
    ["SELECT (null::public.secret).*", 'names an excluded table'],
  ],
  mysql: [
    ['SELECT column_name FROM information_schema.columns', 'system catalog'],
    ['SELECT * FROM `INFORMATION_SCHEMA`.`COLUMNS`', 'system catalog'],
    ['SELECT * FROM performance_schema.events_statements_history', 'is not allowed'],
    ['SELECT * FROM sys.schema_table_statistics', 'system catalog'],
  ],
  sqlite: [
    ['SELECT sql FROM sqlite_master', 'system catalog'],
    ['SELECT sql FROM main.sqlite_schema', 'system catalog'],
    ['SELECT * FROM "sqlite_temp_master"', 'system catalog'],
    ["SELECT * FROM pragma_table_info('secret')", 'table policy'],
    ['SELECT * FROM pragma_table_list', 'table policy'],
    ['SELECT * FROM sqlite_stat1', 'system catalog'],
  ],
};

describe('table policy: excluded tables are refused by name in every form', () => {
  it('PostgreSQL', async () => {
    await expectCases('postgres', EXCLUDED, [
      ...excludedEverywhere,
      ['SELECT * FROM public.secret', 'table public.secret is excluded'],
      ['SELECT * FROM "Secret"', 'is excluded'],
      ['SELECT * FROM U&"\\0073ecret"', 'is excluded'],
      ['SELECT * FROM mydb.public.secret', 'is excluded'],
      ['SELECT * FROM ONLY secret', 'is excluded'],
      ['TABLE secret', 'is excluded'],
      ['SELECT * FROM secret TABLESAMPLE SYSTEM (10)', 'is excluded'],
      ['SELECT * FROM orders, LATERAL (SELECT * FROM secret WHERE secret.id = orders.id) s', 'is excluded'],
      ['SELECT * FROM "HR".salaries', 'is excluded'],
      ['SELECT * FROM orders WHERE id = ANY (ARRAY(SELECT id FROM secret))', 'is excluded'],
      ['SELECT * FROM shop.payroll', 'is excluded'],
      // Unqualified: it may resolve to any schema on the search path, so an excluded schema.name refuses it (fail closed).
      ['SELECT * FROM payroll', 'is excluded'],
      ['SELECT * FROM other.payroll', null],
      ...catalogs.postgres,
    ]);
  });

  it('MySQL/MariaDB', async () => {
    await expectCases('mysql', EXCLUDED, [
      ...excludedEverywhere,
      ['SELECT * FROM `secret`', 'is excluded'],
      ['SELECT * FROM `SeCrEt`', 'is excluded'],
      ['SELECT * FROM shop.secret', 'table shop.secret is excluded'],
      ['SELECT * FROM `shop`.`secret`', 'is excluded'],
      ['SELECT * FROM `sec``ret`', null],
      ['SELECT * FROM "secret"', 'is excluded'],
      ['SELECT * FROM orders JOIN (items JOIN secret ON 1) ON 1', 'is excluded'],
      ['TABLE secret', 'is not allowed'],
      ['SELECT 1 UNION TABLE secret', 'is excluded'],
      ['SELECT * FROM {oj orders LEFT OUTER JOIN secret ON 1}', 'is excluded'],
      ['SELECT * FROM hr.anything', 'excluded'],
      ['SELECT * FROM orders t, `hr`.x', 'excluded'],
      // The connection's own database excluded as a whole: its unqualified names are its tables.
      ['SELECT * FROM items', null],
      ...catalogs.mysql,
    ], 'shop');
    expect(await verdict('mysql', 'SELECT * FROM items', { allowed: [], excluded: ['shop.*'] }, 'shop')).toMatchObject({ ok: false });
  });

  it('SQLite', async () => {
    await expectCases('sqlite', EXCLUDED, [
      ...excludedEverywhere,
      ['SELECT * FROM main.secret', 'is excluded'],
      ['SELECT * FROM "secret"', 'is excluded'],
      ['SELECT * FROM [secret]', 'is excluded'],
      ['SELECT * FROM `secret`', 'is excluded'],
      ['SELECT * FROM "SECRET"', 'is excluded'],
      ['SELECT * FROM "sec""ret"', null],
      // Syntax only SQLite itself parses (node-sql-parser does not): still checked, on SQLite's tokens.
      ['SELECT * FROM secret ORDER BY id DESC NULLS LAST', 'is excluded'],
      ['SELECT * FROM orders INDEXED BY ix JOIN secret ON 1', 'is excluded'],
      ...catalogs.sqlite,
    ]);
  });
});

describe('table policy: an allowlist lets only its tables through', () => {
  const allowedEverywhere: Case[] = [
    ['SELECT * FROM orders', null],
    ['SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id', null],
    ['SELECT * FROM orders WHERE customer_id IN (SELECT id FROM customers)', null],
    ['WITH big AS (SELECT * FROM orders WHERE total > 10) SELECT count(*) FROM big', null],
    ['SELECT * FROM users', 'table users is not among this connection\'s allowed tables'],
    ['SELECT * FROM orders, users', 'users is not among'],
    ['SELECT * FROM orders JOIN users ON 1 = 1', 'users is not among'],
    ['SELECT * FROM orders WHERE EXISTS (SELECT 1 FROM users)', 'users is not among'],
    ['SELECT id FROM orders UNION ALL SELECT id FROM users', 'users is not among'],
    // A CTE named like a table outside the list is that table wherever the CTE is not in scope.
    ['SELECT * FROM (WITH users AS (SELECT 1 AS id) SELECT * FROM users) a, users', 'users is not among'],
    ['WITH a AS (SELECT * FROM users), users AS (SELECT 1 AS id) SELECT * FROM a', 'users is not among'],
    ['WITH users AS (SELECT * FROM users) SELECT * FROM users', 'users is not among'],
    ['WITH users AS (SELECT 1 AS id) SELECT * FROM users', null],
    ['WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r', null],
    ['SELECT * FROM other.orders', 'other.orders is not among'],
  ];

  it('PostgreSQL', async () => {
    await expectCases('postgres', ALLOWED, [
      ...allowedEverywhere,
      ['SELECT * FROM public.orders', null],
      ['SELECT EXTRACT(YEAR FROM created_at) AS y, count(*) FROM orders GROUP BY 1', null],
      ['SELECT * FROM "Orders"', 'is not among'],
      ['SELECT * FROM shop.items', null],
      ['SELECT * FROM items', 'is not among'],
      ['SELECT * FROM (SELECT * FROM orders) AS a(x), LATERAL (SELECT * FROM users) u', 'users is not among'],
      ['SELECT * FROM information_schema.tables', 'system catalog'],
      ['SELECT * FROM generate_series(1, 3)', null],
    ]);
  });

  it('MySQL/MariaDB', async () => {
    await expectCases('mysql', { allowed: ['orders', 'customers', 'other2.items'], excluded: [] }, [
      ...allowedEverywhere,
      ['SELECT * FROM shop.orders', null],
      ["SELECT EXTRACT(YEAR FROM created_at) AS y, TRIM(BOTH 'x' FROM name) FROM orders GROUP BY 1", null],
      ['SELECT * FROM `orders`', null],
      ['SELECT * FROM ORDERS', 'is not among'],
      ['SELECT * FROM orders JOIN (customers JOIN users ON 1) ON 1', 'users is not among'],
      ['SELECT * FROM `us``ers`', 'is not among'],
      ['SELECT * FROM other2.items', null],
      ['SELECT 1 FROM dual', null],
      ['SELECT 1 UNION TABLE users', 'users is not among'],
      ['SELECT * FROM orders USE INDEX (ix1, ix2), users', 'users is not among'],
      ['SELECT * FROM orders STRAIGHT_JOIN users', 'users is not among'],
      ['SELECT * FROM {oj orders LEFT OUTER JOIN users ON 1}', 'cannot be checked'],
      ['SELECT a FROM orders GROUP BY a WITH ROLLUP', null],
    ], 'shop');
  });

  it('SQLite', async () => {
    await expectCases('sqlite', ALLOWED, [
      ...allowedEverywhere,
      ['SELECT * FROM main.orders', null],
      ['SELECT * FROM ORDERS', null],
      ['SELECT * FROM "us""ers"', 'is not among'],
      ['SELECT * FROM orders ORDER BY id DESC NULLS LAST', null],
      ['SELECT * FROM users ORDER BY id DESC NULLS LAST', 'users is not among'],
      ['SELECT value FROM orders, json_each(orders.tags)', null],
      ['SELECT * FROM orders WHERE a IS NOT DISTINCT FROM b', null],
    ]);
  });
});

describe('table policy entries', () => {
  it('parses name, schema.name, schema.* and quoted parts; refuses the rest with a reason', () => {
    expect(parsePolicyEntry('orders')).toEqual({ name: 'orders' });
    expect(parsePolicyEntry('hr.salaries')).toEqual({ schema: 'hr', name: 'salaries' });
    expect(parsePolicyEntry('hr.*')).toEqual({ schema: 'hr' });
    expect(parsePolicyEntry('"odd.schema"."t ""x"""')).toEqual({ schema: 'odd.schema', name: 't "x"' });
    for (const bad of ['', 'a.b.c', '*', '.x', 'x.', '"open', 'a\u0000b']) expect(parsePolicyEntry(bad)).toHaveProperty('problem');
  });

  it('introspection shows a table exactly when the guard would let a query read it', () => {
    const policy = compilePolicy('postgres', { allowed: ['orders', 'shop.*'], excluded: ['shop.payroll'] });
    expect(tableVisible(policy, 'public', 'orders')).toBe(true);
    expect(tableVisible(policy, 'sales', 'orders')).toBe(false);
    expect(tableVisible(policy, 'shop', 'items')).toBe(true);
    expect(tableVisible(policy, 'shop', 'payroll')).toBe(false);
    expect(tableVisible(undefined, 'x', 'y')).toBe(true);
  });

  it('no policy changes nothing', async () => {
    for (const dialect of ['postgres', 'mysql', 'sqlite'] as const) {
      expect(await guard.check(dialect, 'SELECT * FROM secret', { tablePolicy: { allowed: [], excluded: [] } })).toMatchObject({ ok: true });
    }
  });
});
