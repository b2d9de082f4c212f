import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QueryEstimate } from '@aigis/contracts';
import { createAdapter, type DialectAdapter } from '../src/connections/dialects/index.js';
import { aliasedTable, mysqlEstimate } from '../src/connections/dialects/mysql/mysql-explain.js';
import { createMysqlDatabase, createPgDatabase, loadMysqlChinook, loadPgChinook, type MysqlDatabase, type PgDatabase, sqliteChinookPath, sqliteTarget } from './support/fixtures.js';

const settings = { connectTimeoutMs: 5000, poolMax: 2 };
const options = { timeoutMs: 10_000 };

/** The database's own estimate, made before a query runs (review before run), on real Chinook in each dialect. */
describe('EXPLAIN estimates on Chinook', () => {
  let pgDb: PgDatabase;
  let myDb: MysqlDatabase;
  const adapters: Record<string, DialectAdapter> = {};
  // Table names per dialect (PostgreSQL Chinook is snake_case, MySQL and SQLite PascalCase).
  const names = {
    postgres: { track: 'track', line: 'invoice_line', key: 'track_id' },
    mysql: { track: 'Track', line: 'InvoiceLine', key: 'TrackId' },
    sqlite: { track: 'Track', line: 'InvoiceLine', key: 'TrackId' },
  } as const;

  beforeAll(async () => {
    [pgDb, myDb] = await Promise.all([createPgDatabase('explain'), createMysqlDatabase('explain')]);
    await Promise.all([loadPgChinook(pgDb), loadMysqlChinook(myDb)]);
    adapters.postgres = createAdapter(pgDb.target(), settings);
    adapters.mysql = createAdapter(myDb.target(), settings);
    adapters.sqlite = createAdapter(sqliteTarget(sqliteChinookPath()), settings);
  });

  afterAll(async () => {
    await Promise.all(Object.values(adapters).map((a) => a.close()));
    await Promise.all([pgDb?.drop(), myDb?.drop()]);
  });

  describe.each(['postgres', 'mysql', 'sqlite'] as const)('%s', (dialect) => {
    const n = names[dialect];

    it('sees a cross join of two tables as millions of rows and both tables read whole', async () => {
      const estimate = await adapters[dialect]!.explain(`SELECT count(*) AS n FROM ${n.track} t CROSS JOIN ${n.line} l`, options);
      // 3503 tracks × 2240 invoice lines = 7.8 M combinations; planners estimate, so within a factor of two.
      expect(estimate.rows).toBeGreaterThan(3_900_000);
      expect(estimate.rows).toBeLessThan(16_000_000);
      const scanned = Object.fromEntries(estimate.scans.map((s) => [s.table.toLowerCase(), s.rows]));
      expect(scanned[n.line.toLowerCase()]).toBeGreaterThan(1000);
      expect(scanned[n.track.toLowerCase()]).toBeGreaterThan(1000);
      if (dialect === 'postgres') expect(estimate.cost).toBeGreaterThan(50_000);
      if (dialect === 'sqlite') expect(estimate.cost).toBeNull();
    });

    it('sees a primary-key lookup as one row and no full scan', async () => {
      const estimate = await adapters[dialect]!.explain(`SELECT * FROM ${n.track} WHERE ${n.key} = 3`, options);
      expect(estimate.scans).toEqual([]);
      expect(estimate.rows).toBeLessThanOrEqual(1);
    });

    it('reports a failing statement as QUERY_FAILED, without running anything', async () => {
      await expect(adapters[dialect]!.explain('SELECT no_such_column FROM no_such_table', options)).rejects.toMatchObject({ code: 'QUERY_FAILED' });
    });
  });

  it('sizes an aliased SQLite scan by its table (EXPLAIN QUERY PLAN names the alias)', async () => {
    const estimate: QueryEstimate = await adapters.sqlite!.explain('SELECT t.Name FROM Track AS t JOIN Album a ON a.AlbumId = t.AlbumId', options);
    expect(estimate.scans).toEqual([{ table: 'Track', rows: 3503 }]);
  });
});

describe('mysqlEstimate (EXPLAIN FORMAT=JSON shapes)', () => {
  it('reads MySQL 8: query_cost, rows_examined_per_scan, nested loops multiply', () => {
    const mysql8 = {
      query_block: {
        select_id: 1,
        cost_info: { query_cost: '786432.50' },
        nested_loop: [
          { table: { table_name: 'orders', access_type: 'ALL', rows_examined_per_scan: 1200000, rows_produced_per_join: 1200000 } },
          { table: { table_name: 'customers', access_type: 'eq_ref', key: 'PRIMARY', rows_examined_per_scan: 1, rows_produced_per_join: 1200000 } },
        ],
      },
    };
    expect(mysqlEstimate(JSON.stringify(mysql8))).toEqual({ cost: 786432.5, rows: 1_200_000, scans: [{ table: 'orders', rows: 1_200_000 }] });
  });

  it('reads MariaDB: rows, wrapped tables, and a derived table counted as its own loop', () => {
    const mariadb = {
      query_block: {
        select_id: 1,
        nested_loop: [
          {
            table: {
              table_name: '<derived2>',
              access_type: 'ALL',
              rows: 2000,
              materialized: { query_block: { select_id: 2, filesort: { temporary_table: { nested_loop: [{ table: { table_name: 'a', access_type: 'ALL', rows: 2000 } }] } } } },
            },
          },
          { 'block-nl-join': { table: { table_name: 'b', access_type: 'ALL', rows: 3000 } } },
        ],
      },
    };
    expect(mysqlEstimate(mariadb)).toEqual({ cost: null, rows: 2000 * 3000 + 2000, scans: [{ table: 'b', rows: 3000 }, { table: 'a', rows: 2000 }] });
  });
});

describe('aliasedTable', () => {
  it.each([
    ['SELECT count(*) FROM Track t CROSS JOIN InvoiceLine l', 'l', 'InvoiceLine'],
    ['SELECT * FROM `shop`.`orders` AS o JOIN customers c ON c.id = o.customer_id', 'o', 'orders'],
    ['SELECT * FROM a, b AS x', 'x', 'b'],
    ['SELECT * FROM orders', 'orders', null],
  ])('%s: %s is %s', (sql, alias, table) => {
    expect(aliasedTable(sql, alias)).toBe(table);
  });
});
