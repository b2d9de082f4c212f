import { formatCount } from './format';

/** Previous / next over a list shown a page at a time (hidden when everything fits on one page). */
export function Pager({ page, pageCount, from, to, total, onPage, testId }: {
  page: number;
  pageCount: number;
  from: number;
  to: number;
  total: number;
  onPage(page: number): void;
  testId?: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav className="pager" aria-label="Pages" data-testid={testId}>
      <span className="muted">
        {formatCount(from)}–{formatCount(to)} of {formatCount(total)}
      </span>
      <span className="spacer" />
      <button type="button" className="btn btn-small" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span className="small">
        {page + 1} / {pageCount}
      </span>
      <button type="button" className="btn btn-small" disabled={page >= pageCount - 1} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
