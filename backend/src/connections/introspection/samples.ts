import type { SchemaTable } from '@aigis/contracts';
import { isAppError } from '../../common/app-error.js';
import { type JsonValue, toJsonSafe } from '../dialects/json-safe.js';
import { cancelledError } from '../dialects/execution-control.js';

/** Longer strings in sample rows are cut: samples show what values look like, not whole documents. */
export const SAMPLE_TEXT_MAX = 200;

/** One sample value: JSON-safe, long text cut with "…", bytes reduced to their length, big JSON to its cut text. */
export function summarizeSampleValue(value: unknown): JsonValue {
  const safe = toJsonSafe(value);
  return summarize(safe);
}

function summarize(value: JsonValue): JsonValue {
  if (typeof value === 'string') return truncate(value);
  if (value === null || typeof value !== 'object') return value;
  if (!Array.isArray(value) && typeof value.$bytes === 'number') return { $bytes: value.$bytes };
  const text = JSON.stringify(value);
  return text.length > SAMPLE_TEXT_MAX ? truncate(text) : value;
}

function truncate(text: string): string {
  if (text.length <= SAMPLE_TEXT_MAX) return text;
  return `${Array.from(text).slice(0, SAMPLE_TEXT_MAX).join('')}…`;
}

export function summarizeSampleRow(columns: string[], row: unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  columns.forEach((c, i) => (out[c] = summarizeSampleValue(row[i])));
  return out;
}

/**
 * Fills `sample_rows` of every table, `concurrency` tables at a time. A table whose query fails gets `sample_error`
 * (the database's message) and the rest carry on; an abort stops the whole run.
 */
export async function collectSamples(
  tables: SchemaTable[],
  options: { concurrency: number; signal?: AbortSignal },
  fetchSample: (table: SchemaTable) => Promise<Record<string, unknown>[]>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tables.length) {
      if (options.signal?.aborted) throw cancelledError();
      const table = tables[next++];
      try {
        table.sample_rows = await fetchSample(table);
      } catch (err) {
        if (options.signal?.aborted) throw cancelledError();
        if (isAppError(err) && err.code === 'CONNECTION_FAILED') throw err;
        table.sample_rows = [];
        table.sample_error = err instanceof Error ? err.message : String(err);
      }
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(options.concurrency, tables.length)) }, worker);
  await Promise.all(workers);
}
