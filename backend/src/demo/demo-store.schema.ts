/**
 * Schema of the generated demo store. SQLite has no COMMENT ON, so each table's purpose is also
 * written into `demo_store_readme` inside the file (the app or the model can read it like any table).
 */

/** Bumped whenever the generated content or schema changes (stored as PRAGMA user_version). */
export const DEMO_STORE_VERSION = 1;

export const DEMO_STORE_TABLES_SQL = `
CREATE TABLE demo_store_readme (
  object_name TEXT PRIMARY KEY,
  object_type TEXT NOT NULL CHECK (object_type IN ('table', 'view')),
  description TEXT NOT NULL
);

CREATE TABLE categories (
  category_id        INTEGER PRIMARY KEY,
  name               TEXT NOT NULL UNIQUE,
  parent_category_id INTEGER REFERENCES categories (category_id)
);

CREATE TABLE products (
  product_id  INTEGER PRIMARY KEY,
  sku         TEXT NOT NULL UNIQUE,
  name        TEXT NOT NULL,
  category_id INTEGER NOT NULL REFERENCES categories (category_id),
  price       REAL NOT NULL CHECK (price > 0),
  cost        REAL NOT NULL CHECK (cost > 0),
  launch_date TEXT NOT NULL
);

CREATE TABLE customers (
  customer_id      INTEGER PRIMARY KEY,
  first_name       TEXT NOT NULL,
  last_name        TEXT NOT NULL,
  email            TEXT NOT NULL UNIQUE,
  country          TEXT NOT NULL,
  region           TEXT NOT NULL,
  city             TEXT NOT NULL,
  segment          TEXT NOT NULL CHECK (segment IN ('Consumer', 'Small Business', 'Corporate')),
  signup_date      TEXT NOT NULL,
  marketing_opt_in INTEGER NOT NULL CHECK (marketing_opt_in IN (0, 1))
);

CREATE TABLE employees (
  employee_id INTEGER PRIMARY KEY,
  first_name  TEXT NOT NULL,
  last_name   TEXT NOT NULL,
  email       TEXT NOT NULL UNIQUE,
  title       TEXT NOT NULL,
  region      TEXT,
  hire_date   TEXT NOT NULL,
  manager_id  INTEGER REFERENCES employees (employee_id)
);

CREATE TABLE orders (
  order_id        INTEGER PRIMARY KEY,
  customer_id     INTEGER NOT NULL REFERENCES customers (customer_id),
  sales_rep_id    INTEGER REFERENCES employees (employee_id),
  order_date      TEXT NOT NULL,
  status          TEXT NOT NULL CHECK (status IN ('processing', 'shipped', 'delivered', 'cancelled', 'returned')),
  channel         TEXT NOT NULL CHECK (channel IN ('web', 'mobile_app', 'marketplace', 'retail_store', 'phone')),
  promo_code      TEXT,
  subtotal        REAL NOT NULL,
  discount_amount REAL NOT NULL DEFAULT 0,
  shipping_cost   REAL NOT NULL DEFAULT 0,
  total           REAL NOT NULL,
  shipped_date    TEXT,
  delivered_date  TEXT
);

CREATE TABLE order_items (
  order_item_id INTEGER PRIMARY KEY,
  order_id      INTEGER NOT NULL REFERENCES orders (order_id),
  product_id    INTEGER NOT NULL REFERENCES products (product_id),
  quantity      INTEGER NOT NULL CHECK (quantity > 0),
  unit_price    REAL NOT NULL CHECK (unit_price > 0),
  UNIQUE (order_id, product_id)
);

CREATE TABLE returns (
  return_id     INTEGER PRIMARY KEY,
  order_id      INTEGER NOT NULL UNIQUE REFERENCES orders (order_id),
  return_date   TEXT NOT NULL,
  reason        TEXT NOT NULL,
  refund_amount REAL NOT NULL
);

CREATE TABLE reviews (
  review_id   INTEGER PRIMARY KEY,
  product_id  INTEGER NOT NULL REFERENCES products (product_id),
  customer_id INTEGER NOT NULL REFERENCES customers (customer_id),
  order_id    INTEGER NOT NULL REFERENCES orders (order_id),
  rating      INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
  title       TEXT NOT NULL,
  body        TEXT NOT NULL,
  review_date TEXT NOT NULL
);
`;

/** Created after the rows are in: building an index once is faster than maintaining it per insert. */
export const DEMO_STORE_INDEXES_AND_VIEWS_SQL = `
CREATE INDEX idx_products_category_id ON products (category_id);
CREATE INDEX idx_orders_customer_id ON orders (customer_id);
CREATE INDEX idx_orders_order_date ON orders (order_date);
CREATE INDEX idx_order_items_product_id ON order_items (product_id);
CREATE INDEX idx_reviews_product_id ON reviews (product_id);

CREATE VIEW monthly_revenue AS
SELECT
  strftime('%Y-%m', order_date)             AS month,
  COUNT(*)                                  AS order_count,
  COUNT(DISTINCT customer_id)               AS customer_count,
  ROUND(SUM(total), 2)                      AS revenue,
  ROUND(SUM(total) / COUNT(*), 2)           AS average_order_value
FROM orders
WHERE status NOT IN ('cancelled', 'returned')
GROUP BY strftime('%Y-%m', order_date)
ORDER BY month;
`;

/** One line per table and view, for the app's connection page and for `demo_store_readme`. */
export function demoStoreDescriptions(firstDay: string, lastDay: string): Record<string, { type: 'table' | 'view'; description: string }> {
  return {
    demo_store_readme: {
      type: 'table',
      description: `What each table and view of this demo store holds. The data is synthetic, generated for ${firstDay} to ${lastDay}; order statuses are as of ${lastDay}. Amounts are in US dollars; dates are TEXT in YYYY-MM-DD form.`,
    },
    categories: {
      type: 'table',
      description: 'Product categories in two levels: top-level categories have parent_category_id NULL; subcategories point to their parent.',
    },
    products: {
      type: 'table',
      description: 'Products for sale. category_id is always a subcategory. price is the current list price, cost the unit cost to the store (margin = price - cost); launch_date is the first day the product could be ordered.',
    },
    customers: {
      type: 'table',
      description: "Registered customers with location (country, world region such as 'Europe', city), segment ('Consumer', 'Small Business', 'Corporate') and signup_date. Some customers never ordered.",
    },
    employees: {
      type: 'table',
      description: 'Sales staff: a head of sales, one regional manager per world region and account executives (sales reps). manager_id points to the employee\'s manager.',
    },
    orders: {
      type: 'table',
      description:
        "One row per order. total = subtotal - discount_amount + shipping_cost, where subtotal = SUM(quantity * unit_price) of its order_items. status is 'processing', 'shipped', 'delivered', 'cancelled' or 'returned'; revenue normally excludes cancelled and returned orders. channel is 'web', 'mobile_app', 'marketplace', 'retail_store' or 'phone'. sales_rep_id is set for orders handled by a sales rep (mostly business customers).",
    },
    order_items: {
      type: 'table',
      description: 'Order lines: product, quantity and unit_price charged at the time of the order (list prices rise a little every year). Order-level discounts are not spread over lines.',
    },
    returns: {
      type: 'table',
      description: "One row per returned order (orders.status = 'returned'), with the return date, the customer's reason and the amount refunded (the order total without shipping).",
    },
    reviews: {
      type: 'table',
      description: 'Product reviews written by customers after delivery: rating from 1 (worst) to 5 (best), a title and a short text.',
    },
    monthly_revenue: {
      type: 'view',
      description: 'Per calendar month (YYYY-MM): number of orders, distinct customers, revenue (sum of order totals) and average order value, excluding cancelled and returned orders.',
    },
  };
}
