/** A list shown a page at a time: the results table, the knowledge lists (Pager draws the controls). */
export interface Page<T> {
  items: T[];
  /** Zero-based page actually shown (clamped into range). */
  page: number;
  pageCount: number;
  /** One-based positions of the first and last item shown (0/0 when empty). */
  from: number;
  to: number;
}

export function pageOf<T>(items: readonly T[], page: number, pageSize: number): Page<T> {
  const size = Math.max(1, Math.floor(pageSize));
  const pageCount = Math.max(1, Math.ceil(items.length / size));
  const p = Math.min(Math.max(0, Math.floor(page)), pageCount - 1);
  const start = p * size;
  const slice = items.slice(start, start + size);
  return { items: slice, page: p, pageCount, from: slice.length ? start + 1 : 0, to: start + slice.length };
}
