import { compile } from 'vega-lite';
import type { TypedColumn } from './column-types.js';

export type Spec = Record<string, unknown>;

const SCHEMA_URL = 'https://vega.github.io/schema/vega-lite/v6.json';

/** The server owns the data: whatever the model put in `data` is replaced by the query rows. */
export function injectData(spec: Spec, rows: Record<string, unknown>[]): Spec {
  const { data: _ignored, datasets: _alsoIgnored, ...rest } = spec;
  return { $schema: SCHEMA_URL, ...rest, data: { values: rows } };
}

/**
 * Validates a spec by compiling it with vega-lite, and checks that every field it encodes is a
 * column (or is made by one of its transforms): vega-lite itself happily draws an empty chart for a typo.
 */
export function validateSpec(spec: Spec, columns: TypedColumn[]): string | null {
  const known = new Set(columns.map((c) => c.name));
  for (const name of producedFields(spec)) known.add(name);
  const missing = [...referencedFields(spec)].filter((f) => !known.has(f) && !known.has(f.split('.')[0]));
  if (missing.length) {
    return `field${missing.length > 1 ? 's' : ''} ${missing.map((f) => `"${f}"`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} not in the data; the columns are ${columns.map((c) => `"${c.name}"`).join(', ')}`;
  }
  const warnings: string[] = [];
  const logger = {
    level: () => logger,
    warn: (...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
    info: () => logger,
    debug: () => logger,
    error: (...args: unknown[]) => {
      warnings.push(args.map(String).join(' '));
      return logger;
    },
  };
  try {
    compile(spec as never, { logger: logger as never });
  } catch (error) {
    return `vega-lite could not compile the spec: ${(error as Error).message}`;
  }
  const fatal = warnings.find((w) => /invalid|unknown|dropping|not supported|missing/i.test(w));
  return fatal ? `vega-lite rejected part of the spec: ${fatal}` : null;
}

function referencedFields(node: unknown, inEncoding = false, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) referencedFields(item, inEncoding, found);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'data' || key === 'datasets') continue;
      if (inEncoding && key === 'field' && typeof value === 'string') found.add(value.replace(/\\\./g, '.'));
      else if (inEncoding && key === 'field' && value && typeof value === 'object' && 'repeat' in value) continue;
      else referencedFields(value, inEncoding || key === 'encoding', found);
    }
  }
  return found;
}

function producedFields(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) {
    for (const item of node) producedFields(item, found);
  } else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'as') for (const name of [value].flat()) if (typeof name === 'string') found.add(name);
      if (key === 'data' || key === 'datasets') continue;
      producedFields(value, found);
    }
  }
  return found;
}

/** A chart that always compiles, chosen from the column types, for when the model's specs do not. */
export function fallbackSpec(columns: TypedColumn[], rows: Record<string, unknown>[], title?: string): Spec {
  const quantitative = columns.filter((c) => c.type === 'quantitative');
  const temporal = columns.find((c) => c.type === 'temporal' || c.type === 'ordinal');
  const nominal = columns.find((c) => c.type === 'nominal');
  const base = { title: title ?? 'Query result', width: 'container', height: 300 };
  let spec: Spec;
  if (temporal && quantitative[0]) {
    spec = {
      ...base,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: temporal.name, type: temporal.type, title: temporal.name },
        y: { field: quantitative[0].name, type: 'quantitative', title: quantitative[0].name },
        ...(nominal ? { color: { field: nominal.name, type: 'nominal' } } : {}),
      },
    };
  } else if (nominal && quantitative[0]) {
    spec = {
      ...base,
      mark: 'bar',
      encoding: {
        x: { field: nominal.name, type: 'nominal', sort: '-y', title: nominal.name },
        y: { field: quantitative[0].name, type: 'quantitative', title: quantitative[0].name },
        tooltip: [{ field: nominal.name }, { field: quantitative[0].name, type: 'quantitative' }],
      },
    };
  } else if (quantitative.length >= 2) {
    spec = {
      ...base,
      mark: 'point',
      encoding: {
        x: { field: quantitative[0].name, type: 'quantitative' },
        y: { field: quantitative[1].name, type: 'quantitative' },
      },
    };
  } else if (quantitative[0]) {
    spec = {
      ...base,
      mark: 'bar',
      encoding: {
        x: { field: quantitative[0].name, type: 'quantitative', bin: true },
        y: { aggregate: 'count', type: 'quantitative', title: 'count' },
      },
    };
  } else {
    const column = nominal ?? columns[0];
    spec = {
      ...base,
      mark: 'bar',
      encoding: column
        ? { x: { field: column.name, type: 'nominal', sort: '-y' }, y: { aggregate: 'count', type: 'quantitative', title: 'count' } }
        : {},
    };
  }
  return injectData(spec, rows);
}
