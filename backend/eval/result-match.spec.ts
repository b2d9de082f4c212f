import { describe, expect, it } from 'vitest';
import { ordersAtTopLevel } from './gold-order.js';
import { canonicalValue, MATCH_LIMITS, resultsMatch, type ResultTable } from './result-match.js';

const table = (columns: string[], rows: unknown[][]): ResultTable => ({
  columns,
  rows: rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]]))),
});

describe('resultsMatch', () => {
  const gold = table(['name', 'total'], [['a', 1], ['b', 2], ['b', 2], ['c', 3]]);

  it('ignores column names and order, and row order when the gold does not order', () => {
    const generated = table(['n', 'artist'], [[2, 'b'], [3, 'c'], [1, 'a'], [2, 'b']]);
    expect(resultsMatch(gold, generated, false)).toEqual({ match: true });
  });

  it('counts row order when the gold orders', () => {
    const shuffled = table(['total', 'name'], [[3, 'c'], [1, 'a'], [2, 'b'], [2, 'b']]);
    expect(resultsMatch(gold, shuffled, true).match).toBe(false);
    const same = table(['total', 'name'], [[1, 'a'], [2, 'b'], [2, 'b'], [3, 'c']]);
    expect(resultsMatch(gold, same, true)).toEqual({ match: true });
  });

  it('compares multisets: a missing duplicate, an extra row, a wrong value or an extra column is a mismatch', () => {
    expect(resultsMatch(gold, table(['name', 'total'], [['a', 1], ['b', 2], ['c', 3]]), false).reason).toBe('3 rows, gold has 4');
    expect(resultsMatch(gold, table(['name', 'total'], [['a', 1], ['b', 2], ['c', 3], ['c', 3]]), false).match).toBe(false);
    expect(resultsMatch(gold, table(['name', 'total'], [['a', 1], ['b', 2], ['b', 2], ['c', 4]]), false).reason).toBe('values differ');
    expect(resultsMatch(gold, table(['name', 'total', 'x'], [['a', 1, 0], ['b', 2, 0], ['b', 2, 0], ['c', 3, 0]]), false).match).toBe(false);
  });

  it('keeps rows together: the same column values paired differently is a mismatch', () => {
    const paired = table(['name', 'total'], [['a', 2], ['b', 1], ['b', 2], ['c', 3]]);
    expect(resultsMatch(gold, paired, false)).toEqual({ match: false, reason: 'rows differ' });
  });

  it('finds the right pairing of columns that hold the same values', () => {
    const g = table(['x', 'y'], [[1, 2], [2, 1]]);
    expect(resultsMatch(g, table(['y', 'x'], [[2, 1], [1, 2]]), true)).toEqual({ match: true });
    expect(resultsMatch(g, table(['y', 'x'], [[1, 2], [2, 1]]), true)).toEqual({ match: true });
    expect(resultsMatch(g, table(['y', 'x'], [[2, 1], [2, 1]]), false).match).toBe(false);
  });

  it('reads numeric text and floats as numbers to 10 significant digits', () => {
    const g = table(['avg'], [['2.3333333333333333'], ['10']]);
    expect(resultsMatch(g, table(['a'], [[2.3333333333333335], [10]]), false)).toEqual({ match: true });
    expect(resultsMatch(g, table(['a'], [[2.33], [10]]), false).match).toBe(false);
    expect(canonicalValue(null)).not.toBe(canonicalValue('null'));
    expect(canonicalValue(true)).not.toBe(canonicalValue(1));
  });

  it('keeps columns named twice apart by position', () => {
    const g: ResultTable = { columns: ['id', 'id_2'], rows: [{ id: 1, id_2: 5 }] };
    expect(resultsMatch(g, { columns: ['a', 'b'], rows: [{ a: 5, b: 1 }] }, false)).toEqual({ match: true });
  });

  it('a truncated answer does not match a whole gold result', () => {
    expect(resultsMatch(gold, { ...gold, truncated: true }, false)).toEqual({ match: false, reason: 'generated result was truncated' });
  });

  describe('hostile results from the API', () => {
    it('refuses tables beyond the bounds and malformed ones, without throwing', () => {
      const wide = table(Array.from({ length: MATCH_LIMITS.columns + 1 }, (_, i) => `c${i}`), []);
      expect(resultsMatch(gold, wide, false).reason).toMatch(/more than 200 columns/);
      const long: ResultTable = { columns: ['a'], rows: Array.from({ length: MATCH_LIMITS.rows + 1 }, () => ({ a: 1 })) };
      expect(resultsMatch(gold, long, false).reason).toMatch(/more than 100000 rows/);
      expect(resultsMatch(gold, { columns: 'name' as unknown as string[], rows: [] }, false).reason).toMatch(/not a table/);
      expect(resultsMatch(gold, { columns: [{}] as unknown as string[], rows: [] }, false).reason).toMatch(/not text/);
      expect(resultsMatch(table(['a'], [[1]]), { columns: ['a'], rows: [null as unknown as Record<string, unknown>] }, false).match).toBe(false);
    });

    it('reads deeply nested and huge values within bounds', () => {
      let deep: unknown = 1;
      for (let i = 0; i < 10_000; i++) deep = [deep];
      expect(canonicalValue(deep).length).toBeLessThanOrEqual(MATCH_LIMITS.valueChars + 2);
      expect(canonicalValue('x'.repeat(10_000_000)).length).toBe(MATCH_LIMITS.valueChars + 2);
      const wideObject = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i]));
      expect(canonicalValue(wideObject).length).toBeLessThanOrEqual(MATCH_LIMITS.valueChars + 2);
    });

    it('gives up on a search of too many column pairings instead of running for ever', () => {
      // 12 columns of equal values: every pairing is allowed by the values, and rows differ in one place.
      const cols = Array.from({ length: 12 }, (_, i) => `c${i}`);
      const g = table(cols, [cols.map(() => 1), cols.map(() => 2)]);
      const gen = table(cols, [cols.map((_, i) => (i === 0 ? 2 : 1)), cols.map((_, i) => (i === 0 ? 1 : 2))]);
      expect(resultsMatch(g, gen, false)).toEqual({ match: false, reason: `undecided after ${MATCH_LIMITS.assignments} column assignments` });
    });
  });
});

describe('ordersAtTopLevel', () => {
  it.each([
    ['SELECT a FROM t ORDER BY a', true],
    ['SELECT a FROM t order\n by a DESC LIMIT 3', true],
    ['SELECT a FROM (SELECT a FROM t ORDER BY a) s', false],
    ['WITH x AS (SELECT a FROM t ORDER BY a) SELECT * FROM x', false],
    ['SELECT rank() OVER (ORDER BY a), string_agg(b, \',\' ORDER BY b) FROM t GROUP BY a', false],
    ["SELECT 'ORDER BY a' FROM t -- ORDER BY a", false],
    ['SELECT "order" FROM t /* ORDER BY */', false],
    ['SELECT a FROM t UNION SELECT b FROM u ORDER BY 1', true],
  ])('%s → %s', (sql, expected) => {
    expect(ordersAtTopLevel(sql)).toBe(expected);
  });
});
