import { describe, expect, it } from 'vitest';
import { capCell, cutMarker, cutText, RowCollector } from './result-budget.js';

describe('cutText', () => {
  it('keeps a value that fits, whatever its characters', () => {
    expect(cutText('héllo', 6)).toBe('héllo');
    expect(cutText('x'.repeat(100), 100)).toBe('x'.repeat(100));
  });

  it('cuts to the budget in UTF-8 bytes, marker included, naming the full size', () => {
    const cut = cutText('x'.repeat(10_000), 100);
    expect(cut.endsWith(cutMarker(10_000))).toBe(true);
    expect(cut).toBe(`${'x'.repeat(100 - Buffer.byteLength(cutMarker(10_000)))}${cutMarker(10_000)}`);
  });

  it('never splits a multi-byte character or a surrogate pair', () => {
    for (const unit of ['é', '€', '😀']) {
      for (let budget = 40; budget < 60; budget++) {
        const cut = cutText(unit.repeat(1000), budget);
        expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(budget);
        expect(cut.replace(/…\[cut: [\d,]+ bytes\]$/, '')).toMatch(new RegExp(`^(${unit})*$`, 'u'));
      }
    }
  });
});

describe('capCell', () => {
  it('turns an oversized object into its cut JSON text, and leaves bytes summaries alone', () => {
    const big = { k: 'z'.repeat(1000) };
    expect(capCell(big, 2000)).toEqual(big);
    expect(capCell(big, 200)).toMatch(/^\{"k":"zzz.*…\[cut: 1,008 bytes\]$/);
    expect(capCell({ $bytes: 10_000_000 }, 10)).toEqual({ $bytes: 10_000_000 });
  });
});

describe('RowCollector', () => {
  it('stops at the row cap with reason row_limit', () => {
    const rows = new RowCollector(2, { cellMaxBytes: 100, resultMaxBytes: 10_000 });
    rows.setColumns(['n']);
    expect([1, 2, 3, 4].map((n) => rows.push([n]))).toEqual([true, true, false, false]);
    expect(rows.rows).toEqual([[1], [2]]);
    expect(rows.reason).toBe('row_limit');
  });

  it('stops before the row that would overflow the result budget, and the answer fits', () => {
    const rows = new RowCollector(1000, { cellMaxBytes: 1000, resultMaxBytes: 5000 });
    rows.setColumns(['v']);
    let n = 0;
    while (rows.push(['y'.repeat(900)])) n++;
    expect(rows.reason).toBe('result_bytes');
    expect(rows.rows.length).toBe(n);
    expect(JSON.stringify(rows.rows.map(([v]) => ({ v }))).length).toBeLessThanOrEqual(5000);
  });

  it('keeps a first row wider than the whole budget, its cells cut to share it', () => {
    const rows = new RowCollector(10, { cellMaxBytes: 1000, resultMaxBytes: 2000 });
    rows.setColumns(Array.from({ length: 10 }, (_, i) => `c${i}`));
    expect(rows.push(Array.from({ length: 10 }, () => 'w'.repeat(1000)))).toBe(false);
    expect(rows.rows).toHaveLength(1);
    expect(rows.truncated).toBe(true);
    expect(rows.bytes).toBeLessThanOrEqual(2000 + 10 * 40);
  });
});
