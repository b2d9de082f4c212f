import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportDemoStore } from '../src/demo/demo-store.export.js';
import { ensureDemoStore } from '../src/demo/demo-store.generator.js';
import { TEST_MYSQL_URL, TEST_PG_URL } from '@aigis/test-support/env';
import { createMysqlDatabase, createPgDatabase, type MysqlDatabase, type PgDatabase } from './support/fixtures.js';

// What docker-compose's `seed` service does, against the machine's real servers.
describe('exporting the demo store to the sample databases', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-export-'));
  let file: string;
  let pgDb: PgDatabase;
  let myDb: MysqlDatabase;
  let expected: Record<string, number>;
  let sqliteRevenue: { month: string; revenue: number }[];

  beforeAll(async () => {
    file = ensureDemoStore(dir);
    const source = new SQLite(file, { readonly: true });
    const tables = (source.prepare("SELECT name FROM sqlite_schema WHERE type='table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name);
    expected = Object.fromEntries(tables.map((t) => [t, (source.prepare(`SELECT COUNT(*) AS n FROM "${t}"`).get() as { n: number }).n]));
    sqliteRevenue = source.prepare('SELECT month, revenue FROM monthly_revenue ORDER BY month').all() as { month: string; revenue: number }[];
    source.close();
    [pgDb, myDb] = await Promise.all([createPgDatabase('export'), createMysqlDatabase('export')]);
  });

  afterAll(async () => {
    await Promise.all([pgDb?.drop(), myDb?.drop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const urlFor = (base: string, database: string) => {
    const url = new URL(base);
    url.pathname = `/${database}`;
    return url.toString();
  };

  it('copies every table, row, key and the monthly_revenue view into PostgreSQL', async () => {
    const counts = await exportDemoStore(file, 'postgres', urlFor(TEST_PG_URL, pgDb.name));
    expect(counts).toEqual(expected);
    for (const [table, n] of Object.entries(expected)) {
      expect((await pgDb.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "${table}"`))[0].n).toBe(String(n));
    }
    const fks = await pgDb.query<{ n: string }>("SELECT COUNT(*) AS n FROM pg_constraint WHERE contype = 'f'");
    expect(Number(fks[0].n)).toBeGreaterThanOrEqual(10);
    const revenue = await pgDb.query<{ month: string; revenue: string }>('SELECT month, revenue FROM monthly_revenue ORDER BY month');
    expect(revenue.map((r) => [r.month, Number(r.revenue)])).toEqual(sqliteRevenue.map((r) => [r.month, r.revenue]));
    const types = await pgDb.query<{ data_type: string }>("SELECT data_type FROM information_schema.columns WHERE table_name = 'orders' AND column_name = 'order_date'");
    expect(types[0].data_type).toBe('date');
  });

  it('copies the same into MariaDB, and running it again replaces the tables', async () => {
    const url = urlFor(TEST_MYSQL_URL, myDb.name);
    await exportDemoStore(file, 'mysql', url);
    const counts = await exportDemoStore(file, 'mysql', url);
    expect(counts).toEqual(expected);
    const rows = await myDb.query<{ n: number }>('SELECT COUNT(*) AS n FROM order_items');
    expect(Number(rows[0].n)).toBe(expected.order_items);
    const revenue = await myDb.query<{ month: string; revenue: string }>('SELECT month, revenue FROM monthly_revenue ORDER BY month');
    expect(revenue.map((r) => [r.month, Number(r.revenue)])).toEqual(sqliteRevenue.map((r) => [r.month, r.revenue]));
  });
});
