import type { QueryEstimate } from './stream-events.js';

/** A count as people say it: 950, 12 k, 1.2 M, 3.4 B. */
export function approxCount(n: number): string {
  const abs = Math.abs(n);
  const scaled = (value: number, unit: string) => `${value >= 100 ? Math.round(value) : Math.round(value * 10) / 10} ${unit}`;
  if (abs >= 1e9) return scaled(n / 1e9, 'B');
  if (abs >= 1e6) return scaled(n / 1e6, 'M');
  if (abs >= 1e4) return scaled(n / 1e3, 'k');
  return String(Math.round(n));
}

/** Full scans named in words; the largest first, and the rest counted (a join of ten small tables is not news). */
const SCANS_NAMED = 3;

/** An estimate in plain words: "scans ~1.2 M rows of orders; ~3.4 M rows processed; cost 52 k". */
export function describeEstimate(estimate: QueryEstimate): string {
  const scans = [...estimate.scans].sort((a, b) => (b.rows ?? Infinity) - (a.rows ?? Infinity));
  const parts = scans.slice(0, SCANS_NAMED).map((s) => (s.rows === null ? `scans all of ${s.table}` : `scans ~${approxCount(s.rows)} rows of ${s.table}`));
  if (scans.length > SCANS_NAMED) parts.push(`${scans.length - SCANS_NAMED} more table${scans.length - SCANS_NAMED === 1 ? '' : 's'} read whole`);
  if (estimate.rows !== null) parts.push(`~${approxCount(estimate.rows)} rows processed`);
  if (estimate.cost !== null) parts.push(`cost ${approxCount(estimate.cost)}`);
  return parts.join('; ') || 'no estimate';
}
