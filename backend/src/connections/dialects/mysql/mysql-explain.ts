import type { QueryEstimate } from '@aigis/contracts';

/** Prepended by our code to a statement the guard accepted; never taken from user text. */
export const MYSQL_EXPLAIN_PREFIX = 'EXPLAIN FORMAT=JSON ';

type Json = Record<string, unknown>;

/** Branches that hold another query block (their joins are separate loops, counted on their own). */
const SUBQUERY_KEYS = new Set(['materialized', 'materialized_from_subquery', 'attached_subqueries', 'subqueries', 'optimized_away_subqueries', 'query_specifications']);

/**
 * Reads `EXPLAIN FORMAT=JSON` of MySQL 5.7+/8 (`cost_info.query_cost`, `rows_examined_per_scan`) and MariaDB
 * (`rows`, `cost` from 11.0; tables wrapped in `block-nl-join`, `read_sorted_file`, `filesort`, …).
 * Rows: the tables of one nested loop multiply (each row of the outer table reads the inner one); the loops of
 * separate query blocks add up. Full scans: `access_type` `ALL` (every row) or `index` (every entry of an index,
 "the same as ALL, except that the index tree is scanned") on a base table (not `<derived2>`).
 */
export function mysqlEstimate(output: unknown, sql = ''): QueryEstimate {
  const root = (typeof output === 'string' ? JSON.parse(output) : output) as Json;
  const block = (root?.query_block ?? root) as Json;
  const costInfo = block?.cost_info as Json | undefined;
  const cost = finite(costInfo?.query_cost) ?? finite(block?.cost);
  const claimed = new Set<Json>();
  const loops: Json[][] = [];
  collectLoops(root, loops, claimed, 0);
  let rows: number | null = null;
  const scans = new Map<string, number | null>();
  for (const loop of loops) {
    let product = 1;
    for (const table of loop) {
      const examined = tableRows(table);
      product *= Math.max(1, examined ?? 1);
      const name = String(table.table_name ?? '');
      if ((table.access_type === 'ALL' || table.access_type === 'index') && name && !name.startsWith('<')) {
        const label = aliasedTable(sql, name) ?? name;
        scans.set(label, Math.max(scans.get(label) ?? 0, examined ?? 0));
      }
    }
    rows = (rows ?? 0) + product;
  }
  return { cost, rows, scans: [...scans].map(([table, n]) => ({ table, rows: n })) };
}

/**
 * MySQL and MariaDB name a table by its alias in the plan (`t` for `Track t`): the table it stands for, read from
 * the text (`FROM|JOIN|, <[db.]table> [AS] <alias>`), so the user reads "Track", not "t". Null when not found.
 */
export function aliasedTable(sql: string, alias: string): string | null {
  const ident = '[`"]?[\\w$]+[`"]?';
  const escaped = alias.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const m = new RegExp(`(?:FROM|JOIN|,)\\s*((?:${ident}\\.)?${ident})\\s+(?:AS\\s+)?[\`"]?${escaped}[\`"]?(?![\\w$])`, 'i').exec(sql);
  if (!m) return null;
  const table = m[1]!.split('.').pop()!.replace(/[`"]/g, '');
  return /^(?:ON|USING|WHERE|JOIN|AS|SELECT)$/i.test(table) ? null : table;
}

function collectLoops(node: unknown, loops: Json[][], claimed: Set<Json>, depth: number): void {
  if (depth > 200 || node === null || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (const item of node) collectLoops(item, loops, claimed, depth + 1);
    return;
  }
  const object = node as Json;
  if (Array.isArray(object.nested_loop)) {
    const tables = object.nested_loop.map((entry) => firstTable(entry, 0)).filter((t): t is Json => t !== null && !claimed.has(t));
    for (const t of tables) claimed.add(t);
    if (tables.length) loops.push(tables);
  }
  const table = object.table;
  if (table && typeof table === 'object' && !Array.isArray(table) && !claimed.has(table as Json)) {
    claimed.add(table as Json);
    loops.push([table as Json]);
  }
  for (const value of Object.values(object)) collectLoops(value, loops, claimed, depth + 1);
}

/** The table access inside one entry of a nested loop (through wrappers, not into subqueries). */
function firstTable(entry: unknown, depth: number): Json | null {
  if (depth > 50 || entry === null || typeof entry !== 'object' || Array.isArray(entry)) return null;
  const object = entry as Json;
  if (object.table && typeof object.table === 'object' && !Array.isArray(object.table)) return object.table as Json;
  for (const [key, value] of Object.entries(object)) {
    if (SUBQUERY_KEYS.has(key)) continue;
    const found = firstTable(value, depth + 1);
    if (found) return found;
  }
  return null;
}

function tableRows(table: Json): number | null {
  return finite(table.rows_examined_per_scan) ?? finite(table.rows);
}

function finite(value: unknown): number | null {
  if (value === undefined || value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}
