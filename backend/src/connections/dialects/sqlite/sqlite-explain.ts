import type { QueryEstimate } from '@aigis/contracts';
// Also loaded as it is by the SQLite process (sqlite-child.ts): no runtime imports, only erasable TypeScript.

/** Prepended by our code (in the SQLite process) to a statement the guard accepted; never taken from user text. */
export const SQLITE_EXPLAIN_PREFIX = 'EXPLAIN QUERY PLAN ';

/** One row of EXPLAIN QUERY PLAN. */
export interface SqlitePlanRow {
  id: number;
  parent: number;
  detail: string;
}

/** A plan with what is needed to size it. */
export interface SqliteExplainReply {
  plan: SqlitePlanRow[];
  /** Row counts (from sqlite_stat1, else counted up to a cap) of the tables the plan scans, by name. */
  tableRows: Record<string, number>;
  /** The scan targets resolved to tables (an alias names its table); unresolved ones are absent. */
  resolved: Record<string, string>;
}

/**
 * The tables a scanned name may stand for. A table's own name is itself; an alias is resolved from the text
 * (`Track t`, `"Track" AS t`). When the text does not tell, every table the query mentions is a candidate and
 * the caller takes the largest: an estimate that errs towards asking.
 */
export function scanCandidates(sql: string, name: string, tables: string[]): string[] {
  const exact = tables.find((t) => t.toLowerCase() === name.toLowerCase());
  if (exact) return [exact];
  const ident = (n: string) => `["\`\\[]?${escapeRegExp(n)}["\`\\]]?`;
  const aliased = tables.filter((t) => new RegExp(`(?:^|[^\\w$])${ident(t)}\\s*(?:AS\\s+)?${ident(name)}(?![\\w$])`, 'i').test(sql));
  if (aliased.length) return aliased;
  return tables.filter((t) => new RegExp(`(?:^|[^\\w$])${ident(t)}(?![\\w$])`, 'i').test(sql));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const SCAN = /^SCAN (.+?)(?: USING (?:COVERING )?INDEX .*| VIRTUAL TABLE .*)?$/;
const SEARCH = /^SEARCH /;

/**
 * The names a plan scans (`SCAN <table or alias>`), without CTE and subquery labels, whose own scans are
 * listed separately. SQLite names the alias when the query gives one.
 */
export function scannedNames(plan: SqlitePlanRow[]): string[] {
  const labels = new Set<string>();
  for (const row of plan) {
    const m = /^(?:MATERIALIZE|CO-ROUTINE) (.+)$/.exec(row.detail);
    if (m) labels.add(m[1]!);
  }
  const names = new Set<string>();
  for (const row of plan) {
    const m = SCAN.exec(row.detail);
    if (m && !labels.has(m[1]!) && !m[1]!.startsWith('(')) names.add(m[1]!);
  }
  return [...names];
}

/**
 * SQLite has no cost: the estimate is its plan. Every `SCAN` of a table (with or without a covering index: both
 * read every row) is a full scan sized by the table's row count; the loops under one parent are nested, so their
 * sizes multiply (a `SEARCH` counts as one row per outer row), and separate parents add up.
 */
export function sqliteEstimate(reply: SqliteExplainReply): QueryEstimate {
  const groups = new Map<number, number>();
  const scans = new Map<string, number | null>();
  for (const row of reply.plan) {
    const scan = SCAN.exec(row.detail);
    let factor = 1;
    if (scan) {
      const table = reply.resolved[scan[1]!];
      const rows = table !== undefined ? reply.tableRows[table] : undefined;
      if (table !== undefined) {
        scans.set(table, Math.max(scans.get(table) ?? 0, rows ?? 0));
        factor = Math.max(1, rows ?? 1);
      }
    } else if (!SEARCH.test(row.detail)) {
      continue;
    }
    groups.set(row.parent, (groups.get(row.parent) ?? 1) * factor);
  }
  const rows = groups.size ? [...groups.values()].reduce((a, b) => a + b, 0) : null;
  return { cost: null, rows, scans: [...scans].map(([table, n]) => ({ table, rows: n })) };
}
