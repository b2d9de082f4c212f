import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STORE_FILE_NAME, ensureDemoStore, generateDemoStore, type DemoStoreSummary } from '../src/demo/demo-store.generator.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-demo-store-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

function openReadOnly(file: string): Database.Database {
  return new Database(file, { readonly: true, fileMustExist: true });
}

/** sha256 per table over every row in primary-key order, plus the schema text of every object. */
function tableDigests(file: string): Record<string, string> {
  const db = openReadOnly(file);
  try {
    const objects = db
      .prepare("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")
      .all() as { type: string; name: string; sql: string | null }[];
    const digests: Record<string, string> = {};
    for (const { type, name, sql } of objects) {
      const hash = createHash('sha256').update(sql ?? '');
      if (type === 'table') {
        const pk = (db.pragma(`table_info("${name}")`) as { name: string; pk: number }[])
          .filter((c) => c.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((c) => `"${c.name}"`);
        // Without a primary key the row order would not be defined, and the digest meaningless.
        expect(pk, `primary key of ${name}`).not.toHaveLength(0);
        for (const row of db.prepare(`SELECT * FROM "${name}" ORDER BY ${pk.join(', ')}`).raw().iterate()) {
          hash.update(JSON.stringify(row)).update('\n');
        }
      }
      digests[`${type}:${name}`] = hash.digest('hex');
    }
    return digests;
  } finally {
    db.close();
  }
}

function generate(name: string, options?: Parameters<typeof generateDemoStore>[1]): { file: string; summary: DemoStoreSummary } {
  const file = path.join(work, name);
  return { file, summary: generateDemoStore(file, options) };
}

describe('generateDemoStore', () => {
  let main: { file: string; summary: DemoStoreSummary };
  let db: Database.Database;
  const all = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).all(...params) as T[];
  const value = <T>(sql: string, ...params: unknown[]) => db.prepare(sql).pluck().get(...params) as T;

  beforeAll(() => {
    main = generate('main.sqlite');
    db = openReadOnly(main.file);
  });
  afterAll(() => db?.close());

  it('creates a store of the documented size', () => {
    const { tables } = main.summary;
    expect(Object.keys(tables).sort()).toEqual(
      ['categories', 'customers', 'demo_store_readme', 'employees', 'order_items', 'orders', 'products', 'returns', 'reviews'].sort(),
    );
    expect(tables.customers).toBe(2000);
    expect(tables.products).toBeGreaterThanOrEqual(150);
    expect(tables.orders).toBeGreaterThan(22_000);
    expect(tables.orders).toBeLessThan(28_000);
    expect(tables.order_items).toBeGreaterThan(55_000);
    expect(tables.reviews).toBeGreaterThan(1000);
    expect(tables.returns).toBeGreaterThan(200);
    // The counts are the real ones, not what the generator meant to insert.
    expect(value<number>('SELECT COUNT(*) FROM order_items')).toBe(tables.order_items);
  });

  it('produces identical content for the same seed and different content for another seed', () => {
    const again = generate('same-seed.sqlite');
    const other = generate('other-seed.sqlite', { seed: 7 });
    const first = tableDigests(main.file);
    expect(tableDigests(again.file)).toEqual(first);
    const different = tableDigests(other.file);
    for (const table of ['customers', 'orders', 'order_items', 'products']) {
      expect(different[`table:${table}`], table).not.toBe(first[`table:${table}`]);
    }
    // Names of things stay put; only the generated data moves.
    expect(different['table:categories']).toBe(first['table:categories']);
  });

  it('keeps referential integrity', () => {
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(value('SELECT COUNT(*) FROM order_items i LEFT JOIN orders o USING (order_id) WHERE o.order_id IS NULL')).toBe(0);
    expect(value('SELECT COUNT(*) FROM order_items i LEFT JOIN products p USING (product_id) WHERE p.product_id IS NULL')).toBe(0);
    expect(value('SELECT COUNT(*) FROM orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = o.order_id)')).toBe(0);
    // Products sit in subcategories, whose parents are top-level categories.
    expect(
      value(`SELECT COUNT(*) FROM products p JOIN categories c USING (category_id)
             LEFT JOIN categories parent ON parent.category_id = c.parent_category_id
             WHERE parent.category_id IS NULL OR parent.parent_category_id IS NOT NULL`),
    ).toBe(0);
  });

  it('keeps dates consistent with each other', () => {
    expect(value('SELECT MIN(order_date) FROM orders')).toBe('2021-01-01');
    expect(value('SELECT MAX(order_date) FROM orders')).toBe('2025-12-31');
    expect(value("SELECT COUNT(DISTINCT substr(order_date, 1, 7)) FROM orders")).toBe(60);
    expect(
      value(`SELECT COUNT(*) FROM orders o JOIN customers c USING (customer_id) WHERE c.signup_date > o.order_date`),
      'orders before the customer signed up',
    ).toBe(0);
    expect(
      value(`SELECT COUNT(*) FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id)
             WHERE p.launch_date > o.order_date`),
      'products sold before launch',
    ).toBe(0);
    expect(
      value(`SELECT COUNT(*) FROM orders WHERE shipped_date < order_date OR delivered_date < shipped_date
             OR shipped_date > '2025-12-31' OR delivered_date > '2025-12-31'`),
    ).toBe(0);
    expect(value(`SELECT COUNT(*) FROM returns r JOIN orders o USING (order_id) WHERE r.return_date < o.delivered_date OR r.return_date > '2025-12-31'`)).toBe(0);
    expect(value(`SELECT COUNT(*) FROM reviews r JOIN orders o USING (order_id) WHERE r.review_date < o.delivered_date OR r.review_date > '2025-12-31'`)).toBe(0);
    expect(value("SELECT COUNT(*) FROM orders WHERE status = 'delivered' AND delivered_date IS NULL")).toBe(0);
  });

  it('covers exactly the configured years', () => {
    const custom = generate('custom-years.sqlite', { startYear: 2018, years: 2 });
    const other = openReadOnly(custom.file);
    try {
      const years = other.prepare("SELECT substr(order_date, 1, 4) AS year, COUNT(*) AS n FROM orders GROUP BY 1 ORDER BY 1").all();
      expect(years.map((r: any) => r.year)).toEqual(['2018', '2019']);
      expect(other.prepare('SELECT MIN(order_date) FROM orders').pluck().get()).toBe('2018-01-01');
      expect(other.prepare('SELECT MAX(order_date) FROM orders').pluck().get()).toBe('2019-12-31');
      expect(custom.summary.tables.orders).toBeGreaterThan(8000);
    } finally {
      other.close();
    }
  });

  it('has holiday peaks, a summer dip and busier weekdays', () => {
    const years = all<{ year: string; peak: number; summer: number; average: number }>(`
      SELECT substr(month, 1, 4) AS year,
             AVG(CASE WHEN substr(month, 6, 2) IN ('11', '12') THEN revenue END) AS peak,
             AVG(CASE WHEN substr(month, 6, 2) IN ('07', '08') THEN revenue END) AS summer,
             AVG(revenue) AS average
      FROM monthly_revenue GROUP BY 1 ORDER BY 1`);
    expect(years).toHaveLength(5);
    for (const { year, peak, summer, average } of years) {
      expect(peak / average, `Nov+Dec vs the average month of ${year}`).toBeGreaterThan(1.3);
      expect(summer / average, `Jul+Aug vs the average month of ${year}`).toBeLessThan(0.95);
    }
    const byWeekday = all<{ weekday: string; n: number }>("SELECT strftime('%w', order_date) AS weekday, COUNT(*) AS n FROM orders GROUP BY 1");
    const count = (day: string) => byWeekday.find((r) => r.weekday === day)!.n;
    expect(count('6')).toBeLessThan(0.85 * count('1')); // Saturday vs Monday
  });

  it('grows year over year', () => {
    const revenue = all<{ year: string; revenue: number; orders: number }>(`
      SELECT substr(order_date, 1, 4) AS year, SUM(total) AS revenue, COUNT(*) AS orders
      FROM orders WHERE status NOT IN ('cancelled', 'returned') GROUP BY 1 ORDER BY 1`);
    expect(revenue.map((r) => r.year)).toEqual(['2021', '2022', '2023', '2024', '2025']);
    for (let i = 1; i < revenue.length; i++) {
      expect(revenue[i]!.revenue, revenue[i]!.year).toBeGreaterThan(1.05 * revenue[i - 1]!.revenue);
      expect(revenue[i]!.orders, revenue[i]!.year).toBeGreaterThan(revenue[i - 1]!.orders);
    }
  });

  it('keeps order totals consistent with their items, discounts and shipping', () => {
    expect(
      value(`SELECT COUNT(*) FROM orders o
             JOIN (SELECT order_id, SUM(quantity * unit_price) AS items FROM order_items GROUP BY order_id) i USING (order_id)
             WHERE ABS(o.subtotal - i.items) > 0.005`),
    ).toBe(0);
    expect(value('SELECT COUNT(*) FROM orders WHERE ABS(total - (subtotal - discount_amount + shipping_cost)) > 0.005')).toBe(0);
    expect(value('SELECT COUNT(*) FROM orders WHERE discount_amount < 0 OR discount_amount > subtotal OR shipping_cost < 0')).toBe(0);
    expect(value('SELECT COUNT(*) FROM orders WHERE discount_amount > 0 AND promo_code IS NULL')).toBe(0);
    expect(value('SELECT COUNT(*) FROM orders WHERE discount_amount > 0')).toBeGreaterThan(1000);
    // A return exists exactly for the returned orders and refunds the order without shipping.
    expect(value("SELECT COUNT(*) FROM orders WHERE status = 'returned'")).toBe(value('SELECT COUNT(*) FROM returns'));
    expect(
      value(`SELECT COUNT(*) FROM returns r JOIN orders o USING (order_id)
             WHERE o.status <> 'returned' OR ABS(r.refund_amount - (o.total - o.shipping_cost)) > 0.005`),
    ).toBe(0);
    // Prices charged are the prices of the time: never above today's list price, which is above cost.
    expect(value('SELECT COUNT(*) FROM order_items i JOIN products p USING (product_id) WHERE i.unit_price > p.price')).toBe(0);
    expect(value('SELECT COUNT(*) FROM products WHERE cost >= price')).toBe(0);
    expect(value(`SELECT COUNT(*) FROM order_items i JOIN orders o USING (order_id) JOIN products p USING (product_id)
                  WHERE o.order_date < '2022-01-01' AND i.unit_price < p.price`)).toBeGreaterThan(0);
  });

  it('describes every table and view in demo_store_readme', () => {
    const objects = all<{ name: string; type: string }>("SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'");
    const readme = all<{ object_name: string; object_type: string; description: string }>('SELECT * FROM demo_store_readme');
    expect(readme.map((r) => `${r.object_type}:${r.object_name}`).sort()).toEqual(objects.map((o) => `${o.type}:${o.name}`).sort());
    for (const row of readme) expect(row.description.length, row.object_name).toBeGreaterThan(40);
    expect(value('SELECT COUNT(*) FROM monthly_revenue')).toBe(60);
  });

  it('opens read-only, with no journal beside it', () => {
    expect(value<string>('PRAGMA journal_mode')).toBe('delete');
    expect(() => db.exec("INSERT INTO categories (name) VALUES ('x')")).toThrow(/readonly/i);
    const siblings = fs.readdirSync(work).filter((f) => f.startsWith('main.sqlite'));
    expect(siblings).toEqual(['main.sqlite']);
  });

  it('refuses to overwrite an existing file and rejects bad options', () => {
    expect(() => generateDemoStore(main.file)).toThrow(/already exists/);
    expect(() => generateDemoStore(path.join(work, 'bad.sqlite'), { years: 0 })).toThrow(RangeError);
    expect(fs.existsSync(path.join(work, 'bad.sqlite'))).toBe(false);
  });
});

describe('ensureDemoStore', () => {
  it('creates the store once, atomically, and reuses it afterwards', () => {
    const dir = path.join(work, 'data-first-start', 'nested');
    const file = ensureDemoStore(dir, { years: 1 });
    expect(file).toBe(path.join(dir, DEMO_STORE_FILE_NAME));
    expect(fs.readdirSync(dir)).toEqual([DEMO_STORE_FILE_NAME]);
    const before = fs.statSync(file);
    const digest = tableDigests(file);

    expect(ensureDemoStore(dir, { years: 1 })).toBe(file);
    const after = fs.statSync(file);
    expect([after.ino, after.mtimeMs, after.size]).toEqual([before.ino, before.mtimeMs, before.size]);
    expect(tableDigests(file)).toEqual(digest);
    expect(fs.readdirSync(dir)).toEqual([DEMO_STORE_FILE_NAME]);
  });

  it('never regenerates an existing file, whatever it holds', () => {
    const dir = fs.mkdtempSync(path.join(work, 'existing-'));
    fs.writeFileSync(path.join(dir, DEMO_STORE_FILE_NAME), 'kept as is');
    expect(ensureDemoStore(dir)).toBe(path.join(dir, DEMO_STORE_FILE_NAME));
    expect(fs.readFileSync(path.join(dir, DEMO_STORE_FILE_NAME), 'utf8')).toBe('kept as is');
  });

  it('leaves nothing behind when generation fails midway', () => {
    const dir = fs.mkdtempSync(path.join(work, 'failing-'));
    const crashing = (file: string): DemoStoreSummary => {
      fs.writeFileSync(file, 'half-written');
      throw new Error('disk full');
    };
    expect(() => ensureDemoStore(dir, undefined, crashing)).toThrow('disk full');
    expect(fs.readdirSync(dir)).toEqual([]);
    expect(() => ensureDemoStore(dir, { years: 0 })).toThrow(RangeError);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('clears temp files left by a crashed start, but not one still being written', () => {
    const dir = fs.mkdtempSync(path.join(work, 'crashed-'));
    const stale = `.${DEMO_STORE_FILE_NAME}.4242.0.tmp`;
    const fresh = `.${DEMO_STORE_FILE_NAME}.4243.0.tmp`;
    fs.writeFileSync(path.join(dir, stale), 'half-written');
    fs.writeFileSync(path.join(dir, fresh), 'in progress');
    const hourAgo = new Date(Date.now() - 3_600_000);
    fs.utimesSync(path.join(dir, stale), hourAgo, hourAgo);

    ensureDemoStore(dir, { years: 1 });
    expect(fs.readdirSync(dir).sort()).toEqual([fresh, DEMO_STORE_FILE_NAME].sort());
  });
});
