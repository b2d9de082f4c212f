import { describe, expect, it } from 'vitest';
import { approxCount, describeEstimate } from './estimate-words.js';

describe('estimate in words', () => {
  it.each([
    [950, '950'],
    [2240, '2240'],
    [12_345, '12.3 k'],
    [1_234_567, '1.2 M'],
    [7_846_720, '7.8 M'],
    [3_400_000_000, '3.4 B'],
  ])('approxCount(%d) = %s', (n, text) => expect(approxCount(n)).toBe(text));

  it('names the largest scans first, then the rows and the cost', () => {
    expect(
      describeEstimate({
        cost: 52_000,
        rows: 3_400_000,
        scans: [
          { table: 'media_type', rows: 5 },
          { table: 'orders', rows: 1_200_000 },
          { table: 'lines', rows: 40_000 },
          { table: 'customers', rows: null },
        ],
      }),
    ).toBe('scans all of customers; scans ~1.2 M rows of orders; scans ~40 k rows of lines; 1 more table read whole; ~3.4 M rows processed; cost 52 k');
  });

  it('says so when the database gave nothing', () => {
    expect(describeEstimate({ cost: null, rows: null, scans: [] })).toBe('no estimate');
  });
});
