import type { ReviewMode, ReviewThresholds } from '@aigis/contracts';

/**
 * What "expensive" means when a connection sets nothing: a PostgreSQL cost of 100 k is about a sequential read of
 * 5–10 M rows; a million rows processed, or a whole table of over a million rows read, is worth a look first.
 */
export const DEFAULT_REVIEW_THRESHOLDS: ReviewThresholds = { cost: 100_000, rows: 1_000_000, scan_rows: 1_000_000 };

/** A connection's review mode when it sets none. */
export const DEFAULT_REVIEW_MODE: ReviewMode = 'expensive';
