import type { Spec } from './vega-spec.js';

/**
 * What the model writes is untrusted: a chart spec may draw the injected rows and nothing else.
 * Vega fetches from the network for data `url`s (at any view depth, and in `lookup.from.data`),
 * `image` marks and `url`/`href` channels or mark properties, and vega-embed obeys
 * `usermeta.embedOptions` (loader, patch, editor). So the spec is rebuilt from an allowlist of the
 * Vega-Lite keys that draw; everything else is dropped, and a spec that cannot draw without an
 * external resource (an image mark) is refused with a reason the model can act on.
 */
export type SanitizedSpec = { value: Spec } | { error: string };

/** Keys of a view (unit, layer, concat, facet, repeat) that only describe drawing. */
const VIEW_KEYS = new Set([
  'title', 'description', 'name', 'width', 'height', 'autosize', 'background', 'padding', 'config', 'params',
  'transform', 'mark', 'encoding', 'projection', 'layer', 'hconcat', 'vconcat', 'concat', 'columns', 'facet',
  'spec', 'repeat', 'resolve', 'align', 'bounds', 'center', 'spacing', 'view',
]);
const NESTED_VIEW_LISTS = ['layer', 'hconcat', 'vconcat', 'concat'] as const;

/** Every Vega-Lite mark but `image`, which draws only what it fetches from a URL. */
const MARKS = new Set([
  'arc', 'area', 'bar', 'boxplot', 'circle', 'errorband', 'errorbar', 'geoshape', 'line', 'point', 'rect', 'rule',
  'square', 'text', 'tick', 'trail',
]);

/** Encoding channels; `url` (image source) and `href` (link target) are left out on purpose. */
const CHANNELS = new Set([
  'x', 'y', 'x2', 'y2', 'xOffset', 'yOffset', 'xError', 'xError2', 'yError', 'yError2', 'theta', 'theta2', 'radius',
  'radius2', 'longitude', 'latitude', 'longitude2', 'latitude2', 'color', 'fill', 'stroke', 'opacity', 'fillOpacity',
  'strokeOpacity', 'strokeWidth', 'strokeDash', 'size', 'angle', 'shape', 'text', 'tooltip', 'detail', 'key', 'order',
  'description', 'row', 'column', 'facet',
]);

/** The transform kinds of Vega-Lite; each transform object is named by exactly one of them. */
const TRANSFORMS = new Set([
  'aggregate', 'bin', 'calculate', 'density', 'extent', 'filter', 'flatten', 'fold', 'impute', 'joinaggregate',
  'loess', 'lookup', 'pivot', 'quantile', 'regression', 'sample', 'stack', 'timeUnit', 'window',
]);

const PARAM_KEYS = new Set(['name', 'value', 'expr', 'bind', 'select', 'views']);
/** Input widgets stay; `element` (a CSS selector placing them anywhere in our page) does not. */
const BIND_KEYS = new Set(['input', 'options', 'labels', 'min', 'max', 'step', 'name', 'debounce', 'placeholder', 'autocomplete', 'legend']);

/** Property names that make Vega load or link to a URL, wherever they appear. */
const URL_KEYS = new Set(['url', 'href', 'loader', 'usermeta', 'data', 'datasets', '$schema']);

/** Bounds on what a model can send: nested views and JSON depth (a deep spec would overflow the walk). */
export const MAX_VIEW_DEPTH = 8;
export const MAX_JSON_DEPTH = 40;

class Refused extends Error {}

export function sanitizeSpec(spec: unknown): SanitizedSpec {
  if (!isObject(spec)) return { error: 'the spec must be a JSON object' };
  try {
    return { value: view(spec, 0) };
  } catch (error) {
    if (error instanceof Refused) return { error: error.message };
    throw error;
  }
}

function view(node: Record<string, unknown>, depth: number): Spec {
  if (depth > MAX_VIEW_DEPTH) throw new Refused(`views are nested more than ${MAX_VIEW_DEPTH} deep`);
  const out: Spec = {};
  for (const [key, value] of Object.entries(node)) {
    if (!VIEW_KEYS.has(key)) continue;
    if ((NESTED_VIEW_LISTS as readonly string[]).includes(key)) {
      if (Array.isArray(value)) out[key] = value.filter(isObject).map((child) => view(child, depth + 1));
    } else if (key === 'spec') {
      if (isObject(value)) out[key] = view(value, depth + 1);
    } else if (key === 'mark') {
      out[key] = mark(value);
    } else if (key === 'encoding') {
      if (isObject(value)) out[key] = encoding(value);
    } else if (key === 'transform') {
      if (Array.isArray(value)) out[key] = value.filter(isObject).flatMap(transform);
    } else if (key === 'params') {
      if (Array.isArray(value)) out[key] = value.filter(isObject).map(param);
    } else if (!loadsSomething(value)) {
      out[key] = plain(value, 0);
    }
  }
  return out;
}

function mark(value: unknown): unknown {
  const type = typeof value === 'string' ? value : isObject(value) ? value.type : undefined;
  if (type === 'image') throw new Refused('image marks are not allowed (they load pictures from URLs); use another mark');
  if (typeof type !== 'string' || !MARKS.has(type)) throw new Refused(`"${String(type)}" is not a mark; use one of ${[...MARKS].join(', ')}`);
  return isObject(value) ? plain(value, 0) : value;
}

function encoding(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [channel, def] of Object.entries(node)) if (CHANNELS.has(channel)) out[channel] = plain(def, 0);
  return out;
}

/** A transform of a known kind; a lookup only into a selection (`from.param`), never into other data. */
function transform(node: Record<string, unknown>): Record<string, unknown>[] {
  const kinds = Object.keys(node).filter((k) => TRANSFORMS.has(k));
  if (kinds.length !== 1) return [];
  if (kinds[0] === 'lookup') {
    const from = node.from;
    if (!isObject(from) || typeof from.param !== 'string') return [];
  }
  return [plain(node, 0) as Record<string, unknown>];
}

function param(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (!PARAM_KEYS.has(key)) continue;
    if (key === 'bind' && isObject(value)) {
      out.bind = Object.fromEntries(Object.entries(plain(value, 0) as Record<string, unknown>).filter(([k]) => BIND_KEYS.has(k)));
    } else out[key] = plain(value, 0);
  }
  return out;
}

/**
 * A drawing setting (mark properties, channel definitions, axes, scales, config…): copied with every
 * URL-bearing property removed at any depth.
 */
function plain(value: unknown, depth: number): unknown {
  if (depth > MAX_JSON_DEPTH) throw new Refused(`the spec is nested more than ${MAX_JSON_DEPTH} levels deep`);
  if (Array.isArray(value)) return value.filter((item) => !loadsSomething(item)).map((item) => plain(item, depth + 1));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (URL_KEYS.has(key) || key === '__proto__' || loadsSomething(item)) continue;
    out[key] = plain(item, depth + 1);
  }
  return out;
}

/**
 * A colour or style string the SVG renderer would resolve by fetching: `url(http://…)` as a fill or stroke
 * (a red-team test saw Chromium try), `image-set(…)`, `@import`. Such values are dropped like URL keys.
 */
const FETCHING_STYLE = /url\s*\(|image-set\s*\(|@import/i;

function loadsSomething(value: unknown): boolean {
  return typeof value === 'string' && FETCHING_STYLE.test(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
