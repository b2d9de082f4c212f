import { approxCount, type QueryEstimate, type ReviewMode, type ReviewThresholds } from '@aigis/contracts';
import { DEFAULT_REVIEW_MODE } from '../../connections/review-defaults.js';

/** The thread's own setting wins; null follows the connection. */
export function effectiveReviewMode(threadMode: string | null | undefined, connectionMode: string | null | undefined): ReviewMode {
  return asMode(threadMode) ?? asMode(connectionMode) ?? DEFAULT_REVIEW_MODE;
}

function asMode(value: string | null | undefined): ReviewMode | null {
  return value === 'never' || value === 'expensive' || value === 'always' ? value : null;
}

/**
 * Why the user must see this query first, or null when it may run now. An estimate that could not be made is a
 * reason to ask in `expensive` mode: a query too heavy even to plan in time is the one to look at.
 */
export function reviewReason(mode: ReviewMode, estimate: QueryEstimate | null, thresholds: ReviewThresholds, estimateError?: string): string | null {
  if (mode === 'never') return null;
  if (mode === 'always') return 'every query of this conversation is shown before it runs';
  if (!estimate) return `the database could not estimate this query (${estimateError ?? 'no plan'})`;
  const crossed: string[] = [];
  for (const scan of estimate.scans) {
    if (scan.rows !== null && scan.rows > thresholds.scan_rows) crossed.push(`it reads all ~${approxCount(scan.rows)} rows of ${scan.table} (limit ${approxCount(thresholds.scan_rows)})`);
  }
  if (estimate.rows !== null && estimate.rows > thresholds.rows) crossed.push(`about ${approxCount(estimate.rows)} rows to process (limit ${approxCount(thresholds.rows)})`);
  if (estimate.cost !== null && estimate.cost > thresholds.cost) crossed.push(`estimated cost ${approxCount(estimate.cost)} (limit ${approxCount(thresholds.cost)})`);
  return crossed.length ? `expensive: ${crossed.join('; ')}` : null;
}

/** Scans kept in a proposal, and the length of a table name in it: table names come from the user's database. */
const MAX_SCANS = 20;
const MAX_TABLE_NAME = 128;

/** The estimate as it travels to the user and into the checkpoint: bounded in size, largest scans first. */
export function boundedEstimate(estimate: QueryEstimate): QueryEstimate {
  const scans = [...estimate.scans]
    .sort((a, b) => (b.rows ?? Infinity) - (a.rows ?? Infinity))
    .slice(0, MAX_SCANS)
    .map((s) => ({ table: s.table.length > MAX_TABLE_NAME ? `${s.table.slice(0, MAX_TABLE_NAME - 1)}…` : s.table, rows: s.rows }));
  return { cost: estimate.cost, rows: estimate.rows, scans };
}
