import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { dayNumber, dayParts, formatDay, thanksgiving } from './calendar.js';
import { CATALOG } from './demo-store.catalog.js';
import { COUNTRIES, EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, WORLD_REGIONS, emailLocalPart, type Country, type WorldRegion } from './demo-store.people.js';
import { DEMO_STORE_INDEXES_AND_VIEWS_SQL, DEMO_STORE_TABLES_SQL, DEMO_STORE_VERSION, demoStoreDescriptions } from './demo-store.schema.js';
import { Rng, WeightedPicker } from './prng.js';

export const DEMO_STORE_FILE_NAME = 'demo_store.sqlite';

export interface DemoStoreOptions {
  /** Same seed (and years) → same content, row for row. */
  seed?: number;
  /** Orders start on January 1 of this year. */
  startYear?: number;
  /** Number of whole calendar years of orders. */
  years?: number;
}

export interface DemoStoreSummary {
  /** Row count per table. */
  tables: Record<string, number>;
  elapsedMs: number;
}

const DEFAULT_OPTIONS = { seed: 42, startYear: 2021, years: 5 } as const;

// Sizes scale with the number of years: the defaults give ~2,000 customers and ~25,000 orders.
const CUSTOMERS_PER_YEAR = 400;
const ORDERS_PER_YEAR = 5000;

/** Store-wide demand by month (Jan … Dec): holiday peak, a summer dip. */
const MONTH_DEMAND = [0.9, 0.8, 0.93, 0.97, 0.97, 0.84, 0.72, 0.76, 0.95, 1.02, 1.45, 1.7];
/** By weekday (Sun … Sat): online shoppers buy most early in the week, least on Saturday. */
const WEEKDAY_DEMAND = [0.92, 1.12, 1.1, 1.04, 1, 0.94, 0.84];

const SHIPPING: Record<WorldRegion, { fee: number; freeFrom: number; transitDays: readonly [number, number] }> = {
  'North America': { fee: 5.99, freeFrom: 75, transitDays: [2, 5] },
  Europe: { fee: 6.99, freeFrom: 75, transitDays: [2, 6] },
  'Asia Pacific': { fee: 9.99, freeFrom: 120, transitDays: [3, 9] },
  'Latin America': { fee: 11.99, freeFrom: 120, transitDays: [4, 12] },
};

const RETURN_REASONS = ['Changed mind', 'Damaged in transit', 'Defective', 'Not as described', 'Arrived too late', 'Found a better price'];
const RETURN_REASON_WEIGHTS = [30, 15, 20, 20, 8, 7];

const REVIEW_TITLES: Record<number, readonly string[]> = {
  5: ['Absolutely love it', 'Exceeded my expectations', 'Best purchase this year', 'Highly recommend', 'Perfect'],
  4: ['Very good', 'Great value', 'Solid choice', 'Happy with it', 'Would buy again'],
  3: ["It's okay", 'Does the job', 'Average', 'Mixed feelings', 'Decent for the price'],
  2: ['Disappointed', 'Not great', 'Expected more', 'Quality could be better'],
  1: ['Stopped working', 'Would not recommend', 'Poor quality', 'Waste of money'],
};
const REVIEW_BODIES: Record<number, readonly string[]> = {
  5: ['Works exactly as described and feels well made.', 'Fast delivery and the quality is excellent.', 'I use it every day. Bought a second one as a gift.'],
  4: ['Good quality for the price, a few minor quirks.', 'Does everything I need. Packaging could be better.', 'Very happy overall, would recommend.'],
  3: ['Fine for everyday use, nothing special.', 'Some good points, some bad ones.', 'Took a while to arrive but works as expected.'],
  2: ['Looked nicer in the pictures.', 'Started showing wear after a few weeks.', 'Not worth the full price.'],
  1: ['Broke within a week.', 'Did not match the description at all.', 'Customer service was no help either.'],
};

interface Product {
  id: number;
  /** Unit price charged in each year of the period, index 0 = startYear; the last is the list price. */
  priceByYear: number[];
  launchDay: number;
  weight: number;
  season: readonly number[] | undefined;
  returnRisk: number;
  /** Mean star rating this product tends to get. */
  quality: number;
}

interface Customer {
  id: number;
  signupDay: number;
  region: WorldRegion;
  segment: 'Consumer' | 'Small Business' | 'Corporate';
  /** Chance of accepting when drawn for an order; 0 = never orders. */
  activity: number;
  /** Which of the region's reps looks after this customer. */
  repKey: number;
  hasOrdered: boolean;
}

interface SalesRep {
  id: number;
  hireDay: number;
}

interface Period {
  startYear: number;
  years: number;
  firstDay: number;
  lastDay: number;
}

/**
 * Writes a new SQLite file with a deterministic, realistic store: the same options always produce
 * the same rows. Refuses to overwrite an existing file.
 */
export function generateDemoStore(filePath: string, options: DemoStoreOptions = {}): DemoStoreSummary {
  const started = performance.now();
  const { seed, startYear, years } = resolveOptions(options);
  if (fs.existsSync(filePath)) {
    throw new Error(`${filePath} already exists; generateDemoStore only writes new files`);
  }
  const period: Period = { startYear, years, firstDay: dayNumber(startYear, 1, 1), lastDay: dayNumber(startYear + years - 1, 12, 31) };

  const db = new Database(filePath);
  try {
    // The file is private until complete (ensureDemoStore renames it into place), so no journal is needed.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.exec(DEMO_STORE_TABLES_SQL);
    db.transaction(() => {
      populate(db, new Rng(seed), period);
      db.exec(DEMO_STORE_INDEXES_AND_VIEWS_SQL);
    })();
    db.pragma(`user_version = ${DEMO_STORE_VERSION}`);
    const tables = countRows(db);
    db.close();
    return { tables, elapsedMs: Math.round(performance.now() - started) };
  } catch (error) {
    if (db.open) db.close();
    fs.rmSync(filePath, { force: true });
    throw error;
  }
}

let tempCounter = 0;
/** Temp files older than this are leftovers of a crashed start, not a generation in progress. */
const STALE_TEMP_MS = 10 * 60_000;

/**
 * Returns `<dir>/demo_store.sqlite`, generating it first if it does not exist. The file is built
 * under a temporary name in the same directory and renamed into place, so a crash never leaves a
 * half-written demo store behind. `generate` is replaceable so tests can make it fail midway.
 */
export function ensureDemoStore(dir: string, options?: DemoStoreOptions, generate = generateDemoStore): string {
  const target = path.join(dir, DEMO_STORE_FILE_NAME);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(dir, { recursive: true });
  removeStaleTempFiles(dir);
  const temp = path.join(dir, `.${DEMO_STORE_FILE_NAME}.${process.pid}.${tempCounter++}.tmp`);
  try {
    generate(temp, options);
    fsyncPath(temp, 'r+'); // the bytes must be on disk before the name points at them
    fs.renameSync(temp, target);
    fsyncDirectory(dir);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  return target;
}

function removeStaleTempFiles(dir: string): void {
  const pattern = new RegExp(`^\\.${DEMO_STORE_FILE_NAME.replace('.', '\\.')}\\.\\d+\\.\\d+\\.tmp$`);
  for (const name of fs.readdirSync(dir)) {
    if (!pattern.test(name)) continue;
    const file = path.join(dir, name);
    if (Date.now() - fs.statSync(file).mtimeMs > STALE_TEMP_MS) fs.rmSync(file, { force: true });
  }
}

function fsyncPath(target: string, flags: 'r' | 'r+'): void {
  const fd = fs.openSync(target, flags);
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDirectory(dir: string): void {
  try {
    fsyncPath(dir, 'r');
  } catch {
    // Some platforms (Windows) cannot open a directory for fsync; the rename still happened.
  }
}

function resolveOptions(options: DemoStoreOptions): Required<DemoStoreOptions> {
  const resolved = {
    seed: options.seed ?? DEFAULT_OPTIONS.seed,
    startYear: options.startYear ?? DEFAULT_OPTIONS.startYear,
    years: options.years ?? DEFAULT_OPTIONS.years,
  };
  if (!Number.isInteger(resolved.seed)) throw new RangeError(`seed must be an integer, got ${resolved.seed}`);
  if (!Number.isInteger(resolved.startYear) || resolved.startYear < 1900 || resolved.startYear > 2999) {
    throw new RangeError(`startYear must be a year between 1900 and 2999, got ${resolved.startYear}`);
  }
  if (!Number.isInteger(resolved.years) || resolved.years < 1 || resolved.years > 30) {
    throw new RangeError(`years must be an integer from 1 to 30, got ${resolved.years}`);
  }
  return resolved;
}

function countRows(db: Database.Database): Record<string, number> {
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const tables: Record<string, number> = {};
  for (const name of names) tables[name] = db.prepare(`SELECT COUNT(*) FROM "${name}"`).pluck().get() as number;
  return tables;
}

function populate(db: Database.Database, rng: Rng, period: Period): void {
  const insertReadme = db.prepare('INSERT INTO demo_store_readme (object_name, object_type, description) VALUES (?, ?, ?)');
  for (const [name, { type, description }] of Object.entries(demoStoreDescriptions(formatDay(period.firstDay), formatDay(period.lastDay)))) {
    insertReadme.run(name, type, description);
  }
  const products = insertCatalog(db, rng.fork('catalog'), period);
  const reps = insertEmployees(db, rng.fork('employees'), period);
  const customers = insertCustomers(db, rng.fork('customers'), period);
  insertOrders(db, rng.fork('orders'), period, products, customers, reps);
}

function round2(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** Shop-style prices: 47.99, or 8.49 / 8.99 below 20. */
function charmPrice(value: number): number {
  return value >= 20 ? Math.round(value) - 0.01 : Math.max(0.49, Math.round(value * 2) / 2 - 0.01);
}

function insertCatalog(db: Database.Database, rng: Rng, period: Period): Product[] {
  const insertCategory = db.prepare('INSERT INTO categories (category_id, name, parent_category_id) VALUES (?, ?, ?)');
  const insertProduct = db.prepare(
    'INSERT INTO products (product_id, sku, name, category_id, price, cost, launch_date) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const span = period.lastDay - period.firstDay;
  let nextCategoryId = CATALOG.length + 1;
  let nextProductId = 1;
  const products: Product[] = [];

  CATALOG.forEach((top, topIndex) => insertCategory.run(topIndex + 1, top.name, null));
  CATALOG.forEach((top, topIndex) => {
    for (const sub of top.subcategories) {
      const categoryId = nextCategoryId++;
      insertCategory.run(categoryId, sub.name, topIndex + 1);
      sub.products.forEach(([name, listPrice], index) => {
        const price = round2(listPrice - 0.01);
        const cost = round2(price * (0.38 + 0.27 * rng.float()));
        // The first product of each subcategory is always on sale, so every category sells from day one.
        const launchDay =
          index === 0 || rng.chance(0.65) ? period.firstDay - rng.int(30, 1500) : period.firstDay + rng.int(30, Math.max(31, span - 90));
        const inflation = 0.02 + 0.03 * rng.float();
        const priceByYear = Array.from({ length: period.years }, (_, y) =>
          y === period.years - 1 ? price : charmPrice(price / (1 + inflation) ** (period.years - 1 - y)),
        );
        const id = nextProductId++;
        insertProduct.run(id, `${top.code}-${sub.code}-${String(index + 1).padStart(3, '0')}`, name, categoryId, price, cost, formatDay(launchDay));
        products.push({
          id,
          priceByYear,
          launchDay,
          weight: Math.exp(0.45 * rng.normal()) / price ** 0.6,
          season: sub.season,
          returnRisk: sub.returnRisk ?? 0,
          quality: 3.4 + 1.3 * rng.float(),
        });
      });
    }
  });
  return products;
}

function countryPicker(countries: readonly Country[]): WeightedPicker<Country> {
  return new WeightedPicker(countries, countries.map((c) => c.weight));
}

function personName(rng: Rng, country: Country): { firstName: string; lastName: string } {
  return { firstName: rng.pick(FIRST_NAMES[country.locale]), lastName: rng.pick(LAST_NAMES[country.locale]) };
}

/** Appends 2, 3, … to repeated local parts so every address is unique. */
function uniqueEmail(seen: Map<string, number>, local: string, domain: string): string {
  const n = (seen.get(local) ?? 0) + 1;
  seen.set(local, n);
  return `${n === 1 ? local : `${local}${n}`}@${domain}`;
}

const REPS_PER_REGION: Record<WorldRegion, number> = { 'North America': 6, Europe: 6, 'Asia Pacific': 4, 'Latin America': 3 };

function insertEmployees(db: Database.Database, rng: Rng, period: Period): Map<WorldRegion, SalesRep[]> {
  const insert = db.prepare(
    'INSERT INTO employees (employee_id, first_name, last_name, email, title, region, hire_date, manager_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const seen = new Map<string, number>();
  let nextId = 1;
  const add = (country: Country, title: string, region: WorldRegion | null, hireDay: number, managerId: number | null): number => {
    const { firstName, lastName } = personName(rng, country);
    const id = nextId++;
    insert.run(id, firstName, lastName, uniqueEmail(seen, emailLocalPart(firstName, lastName), 'demo-store.example'), title, region, formatDay(hireDay), managerId);
    return id;
  };

  const headId = add(COUNTRIES[0]!, 'Head of Sales', null, period.firstDay - rng.int(2100, 3000), null);
  const managers = new Map<WorldRegion, number>();
  for (const region of WORLD_REGIONS) {
    const countries = countryPicker(COUNTRIES.filter((c) => c.region === region));
    managers.set(region, add(countries.pick(rng), 'Regional Sales Manager', region, period.firstDay - rng.int(1000, 2000), headId));
  }
  const reps = new Map<WorldRegion, SalesRep[]>();
  const span = period.lastDay - period.firstDay;
  for (const region of WORLD_REGIONS) {
    const countries = countryPicker(COUNTRIES.filter((c) => c.region === region));
    const hireDays = Array.from({ length: REPS_PER_REGION[region] }, (_, i) =>
      // Two reps per region are there from the start; the team grows with the business.
      i < 2 ? period.firstDay - rng.int(30, 900) : period.firstDay + rng.int(0, Math.max(1, span - 120)),
    ).sort((a, b) => a - b);
    reps.set(
      region,
      hireDays.map((hireDay) => ({ id: add(countries.pick(rng), 'Account Executive', region, hireDay, managers.get(region)!), hireDay })),
    );
  }
  return reps;
}

function insertCustomers(db: Database.Database, rng: Rng, period: Period): Customer[] {
  const insert = db.prepare(
    `INSERT INTO customers (customer_id, first_name, last_name, email, country, region, city, segment, signup_date, marketing_opt_in)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const count = CUSTOMERS_PER_YEAR * period.years;
  // Signups start a year before the first order and accelerate as the store grows.
  const from = period.firstDay - 365;
  const to = period.lastDay - 7;
  const signupDays = Array.from({ length: count }, () => from + Math.floor((to - from) * rng.float() ** 0.75)).sort((a, b) => a - b);
  const countries = countryPicker(COUNTRIES);
  const cityPickers = new Map(COUNTRIES.map((c) => [c, new WeightedPicker(c.cities, c.cities.map((_, i) => 1 / (i + 1) ** 0.6))]));
  const seen = new Map<string, number>();

  return signupDays.map((signupDay, index) => {
    const id = index + 1;
    const country = countries.pick(rng);
    const city = cityPickers.get(country)!.pick(rng);
    const { firstName, lastName } = personName(rng, country);
    const email = uniqueEmail(seen, emailLocalPart(firstName, lastName), rng.pick(EMAIL_DOMAINS));
    const segment = rng.weighted(['Consumer', 'Small Business', 'Corporate'] as const, [75, 18, 7]);
    insert.run(id, firstName, lastName, email, country.name, country.region, city, segment, formatDay(signupDay), rng.chance(0.55) ? 1 : 0);
    return {
      id,
      signupDay,
      region: country.region,
      segment,
      activity: rng.chance(0.07) ? 0 : Math.min(1, Math.max(0.03, Math.exp(0.8 * rng.normal()) / 4)),
      repKey: rng.int(0, 1000),
      hasOrdered: false,
    };
  });
}

/** Relative demand for every day of the period: growth × month × weekday × shopping holidays. */
function dailyDemand(rng: Rng, period: Period): number[] {
  const growth = Array.from({ length: period.years }, () => 0.15 + 0.15 * rng.float());
  const demand: number[] = [];
  let levelAtYearStart = 1;
  for (let y = 0; y < period.years; y++) {
    const year = period.startYear + y;
    const yearStart = dayNumber(year, 1, 1);
    const yearLength = dayNumber(year + 1, 1, 1) - yearStart;
    const blackFriday = thanksgiving(year) + 1;
    for (let day = yearStart; day < yearStart + yearLength; day++) {
      const { month, dayOfMonth, weekday } = dayParts(day);
      let factor = levelAtYearStart * (1 + growth[y]!) ** ((day - yearStart) / yearLength) * MONTH_DEMAND[month - 1]! * WEEKDAY_DEMAND[weekday]!;
      if (day === blackFriday - 1) factor *= 0.8;
      else if (day === blackFriday) factor *= 3.2;
      else if (day === blackFriday + 1 || day === blackFriday + 2) factor *= 1.8;
      else if (day === blackFriday + 3) factor *= 2.8; // Cyber Monday
      else if (month === 12 && dayOfMonth === 24) factor *= 0.6;
      else if (month === 12 && dayOfMonth === 25) factor *= 0.35;
      else if (month === 12 && dayOfMonth === 26) factor *= 1.3;
      else if (month === 1 && dayOfMonth === 1) factor *= 0.5;
      demand.push(factor);
    }
    levelAtYearStart *= 1 + growth[y]!;
  }
  return demand;
}

type Channel = 'web' | 'mobile_app' | 'marketplace' | 'retail_store' | 'phone';
const CHANNELS: readonly Channel[] = ['web', 'mobile_app', 'marketplace', 'retail_store', 'phone'];

/** Mobile grows at the expense of web and stores; business customers order by phone through their rep. */
function channelWeights(segment: Customer['segment'], yearIndex: number): number[] {
  const t = Math.min(yearIndex, 6);
  if (segment === 'Consumer') return [0.5 - 0.04 * t, 0.14 + 0.05 * t, 0.18, 0.13 - 0.012 * t, 0.05 - 0.005 * t];
  return [0.55, 0.05 + 0.01 * t, 0.05, 0.1, 0.25];
}

function insertOrders(
  db: Database.Database,
  rng: Rng,
  period: Period,
  products: readonly Product[],
  customers: Customer[],
  repsByRegion: ReadonlyMap<WorldRegion, readonly SalesRep[]>,
): void {
  const insertOrder = db.prepare(
    `INSERT INTO orders (order_id, customer_id, sales_rep_id, order_date, status, channel, promo_code, subtotal,
                         discount_amount, shipping_cost, total, shipped_date, delivered_date)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertItem = db.prepare('INSERT INTO order_items (order_item_id, order_id, product_id, quantity, unit_price) VALUES (?, ?, ?, ?, ?)');
  const insertReturn = db.prepare('INSERT INTO returns (return_id, order_id, return_date, reason, refund_amount) VALUES (?, ?, ?, ?, ?)');
  const insertReview = db.prepare(
    'INSERT INTO reviews (review_id, product_id, customer_id, order_id, rating, title, body, review_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );

  const demand = dailyDemand(rng.fork('demand'), period);
  const ordersPerDemand = (ORDERS_PER_YEAR * period.years) / demand.reduce((a, b) => a + b, 0);
  const reviewed = new Set<number>();
  let orderId = 0;
  let itemId = 0;
  let returnId = 0;
  let reviewId = 0;

  // Customers are sorted by signup day; these two cursors bound who exists, and who joined recently.
  let signedUp = 0;
  let joinedBeforeRecent = 0;
  const pickCustomer = (): Customer | undefined => {
    for (let attempt = 0; attempt < 40; attempt++) {
      const fresh = signedUp > joinedBeforeRecent && rng.chance(0.08);
      const customer = customers[fresh ? rng.int(joinedBeforeRecent, signedUp - 1) : rng.int(0, signedUp - 1)]!;
      if (customer.activity > 0 && (fresh || rng.float() < customer.activity)) return customer;
    }
    return customers.slice(0, signedUp).find((c) => c.activity > 0);
  };

  let productPicker: WeightedPicker<Product> | undefined;
  let pickerMonth = -1;
  let lastBlackFriday = -1;

  for (let day = period.firstDay; day <= period.lastDay; day++) {
    const { year, month, dayOfMonth } = dayParts(day);
    const yearIndex = year - period.startYear;
    while (signedUp < customers.length && customers[signedUp]!.signupDay <= day) signedUp++;
    while (joinedBeforeRecent < signedUp && customers[joinedBeforeRecent]!.signupDay <= day - 60) joinedBeforeRecent++;
    if (signedUp === 0) continue;

    if (month !== pickerMonth) {
      // Products on sale from the first of the month, weighted by popularity and the month's season.
      const available = products.filter((p) => p.launchDay <= day);
      productPicker = new WeightedPicker(available, available.map((p) => p.weight * (p.season?.[month - 1] ?? 1)));
      pickerMonth = month;
      lastBlackFriday = thanksgiving(year) + 1;
    }
    const picker = productPicker!;
    const cyberWeekend = day >= lastBlackFriday && day <= lastBlackFriday + 3;

    const orderCount = rng.poisson(demand[day - period.firstDay]! * ordersPerDemand);
    for (let n = 0; n < orderCount; n++) {
      const customer = pickCustomer();
      if (!customer) break;
      const business = customer.segment !== 'Consumer';
      const channel = rng.weighted(CHANNELS, channelWeights(customer.segment, yearIndex));

      const lineCount = Math.min(picker.size, rng.weighted([1, 2, 3, 4, 5, 6], business ? [20, 25, 22, 15, 10, 8] : [30, 30, 20, 10, 6, 4]));
      const lines: { product: Product; quantity: number; unitPrice: number }[] = [];
      const inOrder = new Set<number>();
      while (lines.length < lineCount) {
        const product = picker.pick(rng);
        if (inOrder.has(product.id)) continue;
        inOrder.add(product.id);
        const unitPrice = product.priceByYear[yearIndex]!;
        let quantity: number;
        if (business) quantity = 1 + rng.poisson(unitPrice < 100 ? 2.5 : 0.6);
        else {
          const r = rng.float();
          quantity = r < 0.82 ? 1 : r < 0.95 ? 2 : 3;
          if (unitPrice < 30 && rng.chance(0.25)) quantity++;
        }
        lines.push({ product, quantity, unitPrice });
      }
      const subtotal = round2(lines.reduce((sum, l) => sum + l.quantity * l.unitPrice, 0));

      let promo: string | null = null;
      let discountRate = 0;
      if (!customer.hasOrdered && rng.chance(0.35)) [promo, discountRate] = ['WELCOME10', 0.1];
      else if (cyberWeekend && rng.chance(0.65)) [promo, discountRate] = ['BLACKFRIDAY20', 0.2];
      else if (month === 12 && dayOfMonth <= 20 && rng.chance(0.3)) [promo, discountRate] = ['HOLIDAY15', 0.15];
      else if (customer.segment === 'Corporate' && subtotal >= 500 && rng.chance(0.7)) [promo, discountRate] = ['CORP8', 0.08];
      else if (rng.chance(0.06)) {
        [promo, discountRate] = month >= 3 && month <= 5 ? ['SPRING10', 0.1] : month >= 6 && month <= 8 ? ['SUMMER15', 0.15] : ['NEWSLETTER5', 0.05];
      }
      customer.hasOrdered = true;
      const discount = round2(subtotal * discountRate);

      const shipping = SHIPPING[customer.region];
      const shippingCost =
        channel === 'retail_store' || subtotal - discount >= shipping.freeFrom ? 0 : round2(shipping.fee + (lines.length > 3 ? 3 : 0));
      const total = round2(subtotal - discount + shippingCost);

      const reps = repsByRegion.get(customer.region)!.filter((r) => r.hireDay <= day);
      const salesRepId = (channel === 'phone' || (business && rng.chance(0.6))) && reps.length > 0 ? reps[customer.repKey % reps.length]!.id : null;

      // Status as of the last day of the period: recent orders are still on their way.
      let status: 'processing' | 'shipped' | 'delivered' | 'cancelled' | 'returned';
      let shippedDay: number | null = null;
      let deliveredDay: number | null = null;
      let returnDay: number | null = null;
      if (rng.chance(channel === 'marketplace' ? 0.05 : 0.03)) status = 'cancelled';
      else {
        if (channel === 'retail_store') shippedDay = deliveredDay = day; // handed over in the shop
        else {
          shippedDay = day + rng.int(0, 2);
          deliveredDay = shippedDay + rng.int(...shipping.transitDays);
        }
        if (shippedDay > period.lastDay) [status, shippedDay, deliveredDay] = ['processing', null, null];
        else if (deliveredDay > period.lastDay) [status, deliveredDay] = ['shipped', null];
        else {
          status = 'delivered';
          const returnRisk = 0.035 + Math.max(...lines.map((l) => l.product.returnRisk));
          if (rng.chance(returnRisk)) {
            const candidate = deliveredDay + rng.int(2, 28);
            if (candidate <= period.lastDay) [status, returnDay] = ['returned', candidate];
          }
        }
      }

      orderId++;
      insertOrder.run(
        orderId, customer.id, salesRepId, formatDay(day), status, channel, promo, subtotal, discount, shippingCost, total,
        shippedDay === null ? null : formatDay(shippedDay), deliveredDay === null ? null : formatDay(deliveredDay),
      );
      for (const line of lines) insertItem.run(++itemId, orderId, line.product.id, line.quantity, line.unitPrice);

      if (returnDay !== null) {
        const sizing = lines.some((l) => l.product.returnRisk > 0);
        const reason = sizing && rng.chance(0.6) ? 'Wrong size' : rng.weighted(RETURN_REASONS, RETURN_REASON_WEIGHTS);
        insertReturn.run(++returnId, orderId, formatDay(returnDay), reason, round2(total - shippingCost));
      }

      if (deliveredDay !== null) {
        for (const line of lines) {
          if (!rng.chance(returnDay !== null ? 0.25 : 0.06)) continue;
          const reviewDay = deliveredDay + rng.int(2, 45);
          const key = customer.id * 4096 + line.product.id;
          if (reviewDay > period.lastDay || reviewed.has(key)) continue;
          reviewed.add(key);
          const rating =
            returnDay !== null ? (rng.chance(0.6) ? 1 : 2) : Math.min(5, Math.max(1, Math.round(line.product.quality + 0.9 * rng.normal())));
          insertReview.run(
            ++reviewId, line.product.id, customer.id, orderId, rating, rng.pick(REVIEW_TITLES[rating]!), rng.pick(REVIEW_BODIES[rating]!), formatDay(reviewDay),
          );
        }
      }
    }
  }
}
