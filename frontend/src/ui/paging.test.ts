import { describe, expect, it } from 'vitest';
import { pageOf } from './paging';

describe('pageOf', () => {
  const items = Array.from({ length: 53 }, (_, i) => i + 1);

  it('slices pages and reports positions', () => {
    expect(pageOf(items, 0, 25)).toMatchObject({ page: 0, pageCount: 3, from: 1, to: 25 });
    const last = pageOf(items, 2, 25);
    expect(last).toMatchObject({ page: 2, pageCount: 3, from: 51, to: 53 });
    expect(last.items).toEqual([51, 52, 53]);
  });

  it('clamps a page out of range (after a new, shorter result)', () => {
    expect(pageOf(items, 9, 25).page).toBe(2);
    expect(pageOf(items, -1, 25).page).toBe(0);
  });

  it('has one empty page for no rows', () => {
    expect(pageOf([], 0, 25)).toEqual({ items: [], page: 0, pageCount: 1, from: 0, to: 0 });
  });
});
