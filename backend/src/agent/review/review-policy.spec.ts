import { describe, expect, it } from 'vitest';
import { DEFAULT_REVIEW_THRESHOLDS } from '../../connections/review-defaults.js';
import { boundedEstimate, effectiveReviewMode, reviewReason } from './review-policy.js';

describe('review policy', () => {
  it('lets the thread override the connection, and null follow it', () => {
    expect(effectiveReviewMode(null, 'always')).toBe('always');
    expect(effectiveReviewMode('never', 'always')).toBe('never');
    expect(effectiveReviewMode(undefined, undefined)).toBe('expensive');
    expect(effectiveReviewMode('bogus', 'also bogus')).toBe('expensive');
  });

  it('asks in expensive mode only when a threshold is crossed, saying which', () => {
    const t = DEFAULT_REVIEW_THRESHOLDS;
    expect(reviewReason('expensive', { cost: 10, rows: 100, scans: [{ table: 'artist', rows: 275 }] }, t)).toBeNull();
    expect(reviewReason('expensive', { cost: 10, rows: 100, scans: [{ table: 'orders', rows: 2_500_000 }] }, t)).toBe('expensive: it reads all ~2.5 M rows of orders (limit 1 M)');
    expect(reviewReason('expensive', { cost: 250_000, rows: 7_800_000, scans: [] }, t)).toBe('expensive: about 7.8 M rows to process (limit 1 M); estimated cost 250 k (limit 100 k)');
    expect(reviewReason('expensive', null, t, 'the query ran longer than 30 s')).toMatch(/could not estimate.*30 s/);
    expect(reviewReason('never', { cost: 1e12, rows: 1e12, scans: [] }, t)).toBeNull();
    expect(reviewReason('always', { cost: 1, rows: 1, scans: [] }, t)).toMatch(/every query/);
  });

  it('bounds what a proposal carries: 20 largest scans, table names cut to 128 characters', () => {
    const scans = Array.from({ length: 50 }, (_, i) => ({ table: `${'t'.repeat(500)}${i}`, rows: i }));
    const bounded = boundedEstimate({ cost: null, rows: 1, scans });
    expect(bounded.scans).toHaveLength(20);
    expect(bounded.scans[0]!.rows).toBe(49);
    expect(bounded.scans.every((s) => s.table.length === 128)).toBe(true);
  });
});
