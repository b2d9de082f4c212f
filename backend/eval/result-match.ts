/**
 * Execution match: a generated result is right when it equals the gold result as a multiset of rows, whatever the
 * columns' names and order; row order counts only when the gold query orders its result. Results reach the harness
 * from the API and are not trusted: every size is bounded, and a result beyond a bound is a mismatch with the reason.
 */

export interface ResultTable {
  columns: string[];
  rows: Record<string, unknown>[];
  truncated?: boolean;
}

export interface MatchOutcome {
  match: boolean;
  /** Why not, in a few words (for the report). */
  reason?: string;
}

export const MATCH_LIMITS = {
  rows: 100_000,
  columns: 200,
  /** Characters of one value's canonical text (longer ones are cut, both sides alike). */
  valueChars: 4096,
  /** Nesting of JSON values read. */
  depth: 16,
  /** Column assignments tried before giving up. */
  assignments: 20_000,
};

const NUMERIC = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * One value as a comparable key: numbers (and numeric text, as PostgreSQL sends numeric) to 10 significant digits,
 * so AVG as numeric and as float agree; text as is; JSON values canonically; everything cut at MATCH_LIMITS.valueChars.
 */
export function canonicalValue(value: unknown, depth = 0): string {
  if (value === null || value === undefined) return 'null';
  switch (typeof value) {
    case 'number':
      return canonicalNumber(value);
    case 'bigint':
      return canonicalNumber(Number(value));
    case 'boolean':
      return value ? 'b:1' : 'b:0';
    case 'string': {
      const trimmed = value.length <= 64 ? value.trim() : '';
      if (trimmed && NUMERIC.test(trimmed)) return canonicalNumber(Number(trimmed));
      return `s:${value.slice(0, MATCH_LIMITS.valueChars)}`;
    }
    case 'object': {
      if (depth >= MATCH_LIMITS.depth) return 'o:…';
      const text = Array.isArray(value)
        ? `[${value.slice(0, 256).map((v) => canonicalValue(v, depth + 1)).join(',')}]`
        : `{${Object.keys(value as object)
            .slice(0, 256)
            .sort()
            .map((k) => `${k.slice(0, 256)}:${canonicalValue((value as Record<string, unknown>)[k], depth + 1)}`)
            .join(',')}}`;
      return `o:${text.slice(0, MATCH_LIMITS.valueChars)}`;
    }
    default:
      return `?:${typeof value}`;
  }
}

function canonicalNumber(n: number): string {
  if (!Number.isFinite(n)) return `n:${n}`;
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return `n:${n}`;
  return `n:${Number(n.toPrecision(10))}`;
}

/** The table as rows of canonical values in column order (columns named twice are kept apart by position). */
function matrix(table: ResultTable): string[][] {
  return table.rows.map((row) => table.columns.map((c) => canonicalValue(row?.[c])));
}

function checkShape(table: ResultTable, side: string): string | undefined {
  if (!Array.isArray(table.columns) || !Array.isArray(table.rows)) return `${side} result is not a table`;
  if (table.columns.length > MATCH_LIMITS.columns) return `${side} result has more than ${MATCH_LIMITS.columns} columns`;
  if (table.rows.length > MATCH_LIMITS.rows) return `${side} result has more than ${MATCH_LIMITS.rows} rows`;
  if (table.columns.some((c) => typeof c !== 'string')) return `${side} result has a column name that is not text`;
  return undefined;
}

/**
 * Compares a generated result with the gold one. `ordered`: the gold query orders its rows at the top level, so the
 * rows must come in the same order.
 */
export function resultsMatch(gold: ResultTable, generated: ResultTable, ordered: boolean): MatchOutcome {
  const shape = checkShape(gold, 'gold') ?? checkShape(generated, 'generated');
  if (shape) return { match: false, reason: shape };
  if (generated.truncated && !gold.truncated) return { match: false, reason: 'generated result was truncated' };
  if (gold.columns.length !== generated.columns.length) {
    return { match: false, reason: `${generated.columns.length} columns, gold has ${gold.columns.length}` };
  }
  if (gold.rows.length !== generated.rows.length) return { match: false, reason: `${generated.rows.length} rows, gold has ${gold.rows.length}` };
  const want = matrix(gold);
  const got = matrix(generated);
  const width = gold.columns.length;
  if (width === 0) return { match: true };

  // A generated column can stand for a gold column only if it holds the same multiset of values.
  const signature = (rows: string[][], col: number) => JSON.stringify(rows.map((r) => r[col]).sort());
  const goldSigs = Array.from({ length: width }, (_, c) => signature(want, c));
  const genSigs = Array.from({ length: width }, (_, c) => signature(got, c));
  const candidates = goldSigs.map((sig) => genSigs.flatMap((s, j) => (s === sig ? [j] : [])));
  if (candidates.some((list) => list.length === 0)) return { match: false, reason: 'values differ' };

  const wantRows = ordered ? want.map((r) => JSON.stringify(r)) : want.map((r) => JSON.stringify(r)).sort();
  let tried = 0;
  const assignment: number[] = [];
  const used = new Set<number>();
  const sameRows = (): boolean => {
    const rows = got.map((r) => JSON.stringify(assignment.map((j) => r[j])));
    if (!ordered) rows.sort();
    return rows.every((r, i) => r === wantRows[i]);
  };
  // Depth-first over the column assignments the signatures allow, bounded.
  const search = (col: number): boolean | 'gave_up' => {
    if (col === width) {
      tried++;
      return sameRows();
    }
    for (const j of candidates[col]!) {
      if (used.has(j)) continue;
      if (tried >= MATCH_LIMITS.assignments) return 'gave_up';
      used.add(j);
      assignment.push(j);
      const found = search(col + 1);
      assignment.pop();
      used.delete(j);
      if (found) return found;
    }
    return false;
  };
  const found = search(0);
  if (found === true) return { match: true };
  if (found === 'gave_up') return { match: false, reason: `undecided after ${MATCH_LIMITS.assignments} column assignments` };
  return { match: false, reason: ordered ? 'rows differ or come in another order' : 'rows differ' };
}
