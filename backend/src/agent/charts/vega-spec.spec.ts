import { compile } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { inferColumnTypes } from './column-types.js';
import { fallbackSpec, injectData, validateSpec } from './vega-spec.js';

const rows = [
  { month: '2024-01-01', category: 'Books', revenue: 120.5, orders: 3, year: 2024 },
  { month: '2024-02-01', category: 'Games', revenue: 99, orders: 5, year: 2024 },
];

describe('charts', () => {
  it('infers types from values', () => {
    expect(inferColumnTypes(['month', 'category', 'revenue', 'year', 'empty'], rows)).toEqual([
      { name: 'month', type: 'temporal' },
      { name: 'category', type: 'nominal' },
      { name: 'revenue', type: 'quantitative' },
      { name: 'year', type: 'ordinal' },
      { name: 'empty', type: 'nominal' },
    ]);
  });

  it('replaces any data the model wrote with the query rows', () => {
    const spec = injectData({ mark: 'bar', data: { url: 'http://evil.example/x.csv' } }, rows);
    expect(spec.data).toEqual({ values: rows });
  });

  it('catches fields that are not columns (vega-lite would silently draw nothing) and specs that do not compile', () => {
    const columns = inferColumnTypes(Object.keys(rows[0]), rows);
    expect(validateSpec(injectData({ mark: 'bar', encoding: { x: { field: 'category', type: 'nominal' }, y: { field: 'revenue', type: 'quantitative' } } }, rows), columns)).toBeNull();
    expect(validateSpec(injectData({ mark: 'bar', encoding: { x: { field: 'categry', type: 'nominal' } } }, rows), columns)).toMatch(/"categry" is not in the data/);
    expect(validateSpec(injectData({ mark: 'bar', transform: [{ calculate: 'datum.revenue * 2', as: 'double' }], encoding: { y: { field: 'double', type: 'quantitative' } } }, rows), columns)).toBeNull();
    expect(validateSpec(injectData({ mark: 'not-a-mark', encoding: {} }, rows), columns)).toMatch(/vega-lite/);
  });

  it.each([
    [['month', 'revenue'], 'line'],
    [['category', 'revenue'], 'bar'],
    [['revenue', 'orders'], 'point'],
    [['revenue'], 'bar'],
    [['category'], 'bar'],
  ])('falls back to a chart that compiles for columns %j', (names, mark) => {
    const subset = rows.map((r) => Object.fromEntries(names.map((n) => [n, r[n as keyof typeof r]])));
    const spec = fallbackSpec(inferColumnTypes(names, subset), subset);
    const markType = typeof spec.mark === 'string' ? spec.mark : (spec.mark as { type: string }).type;
    expect(markType).toBe(mark);
    expect(() => compile(spec as never)).not.toThrow();
    expect(validateSpec(spec, inferColumnTypes(names, subset))).toBeNull();
  });
});
