import { useMemo, useState } from 'react';
import { formatCount, plural } from '../../ui/format';
import { pageOf } from '../../ui/paging';
import { cellText, isNumericColumn, nextSort, sortRows, toCsv, type Row, type SortState } from './table-model';
import './results.css';

interface Props {
  columns: string[];
  rows: Row[];
  /** Rows the query returned (before the server's row cap, when the API knows it). */
  rowCount?: number;
  truncated?: boolean;
  elapsedMs?: number;
  pageSize?: number;
  exportName?: string;
  compact?: boolean;
}

const PAGE_SIZES = [10, 25, 50, 100];

export function ResultsTable({ columns, rows, rowCount, truncated, elapsedMs, pageSize = 25, exportName = 'result', compact }: Props) {
  const [sort, setSort] = useState<SortState | null>(null);
  const [page, setPage] = useState(0);
  const [size, setSize] = useState(pageSize);

  const sorted = useMemo(() => sortRows(rows, sort), [rows, sort]);
  const numeric = useMemo(() => new Set(columns.filter((c) => isNumericColumn(rows, c))), [columns, rows]);
  const view = pageOf(sorted, page, size);

  function exportCsv() {
    const blob = new Blob([toCsv(columns, sorted)], { type: 'text/csv;charset=utf-8' });
    const url = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = url;
    a.download = `${exportName.replace(/[^\w.-]+/g, '_') || 'result'}.csv`;
    a.click();
    window.setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  const total = rowCount ?? rows.length;
  return (
    <div className={`results${compact ? ' results-compact' : ''}`} data-testid="results-table">
      <div className="results-bar">
        <span className="results-count" data-testid="results-row-count">
          {plural(total, 'row')}
          {elapsedMs != null && <span className="muted"> · {Math.round(elapsedMs)} ms</span>}
        </span>
        {truncated && (
          <span className="badge badge-warn" data-testid="results-truncated" title="The server caps how many rows a query returns.">
            Truncated: showing the first {formatCount(rows.length)} rows
          </span>
        )}
        <span className="spacer" />
        <button type="button" className="btn btn-ghost btn-small" onClick={exportCsv} disabled={columns.length === 0} data-testid="results-export-csv">
          Export CSV
        </button>
      </div>
      <div className="table-scroll" tabIndex={0} aria-label="Query results">
        <table className="data-table">
          <thead>
            <tr>
              {columns.map((c) => {
                const dir = sort?.column === c ? sort.direction : null;
                return (
                  <th key={c} scope="col" aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'} className={numeric.has(c) ? 'num' : ''}>
                    <button
                      type="button"
                      className="sort-button"
                      onClick={() => {
                        setSort((s) => nextSort(s, c));
                        setPage(0);
                      }}
                      title={`Sort by ${c}`}
                    >
                      {c}
                      <span className="sort-mark" aria-hidden>
                        {dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : ''}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {view.items.map((row, i) => (
              <tr key={view.from + i}>
                {columns.map((c) => {
                  const v = row[c];
                  return (
                    <td key={c} className={`${numeric.has(c) ? 'num' : ''}${v === null || v === undefined ? ' null' : ''}`}>
                      {v === null || v === undefined ? 'NULL' : cellText(v)}
                    </td>
                  );
                })}
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={Math.max(1, columns.length)} className="muted empty-cell">
                  No rows.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      {rows.length > PAGE_SIZES[0] && (
        <nav className="pager" aria-label="Pages">
          <span className="muted">
            {formatCount(view.from)}–{formatCount(view.to)} of {formatCount(rows.length)}
          </span>
          <span className="spacer" />
          <label className="muted small">
            Rows per page{' '}
            <select
              value={size}
              onChange={(e) => {
                setSize(Number(e.target.value));
                setPage(0);
              }}
            >
              {PAGE_SIZES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="btn btn-small" disabled={view.page === 0} onClick={() => setPage(view.page - 1)} data-testid="results-prev">
            Previous
          </button>
          <span className="small">
            {view.page + 1} / {view.pageCount}
          </span>
          <button
            type="button"
            className="btn btn-small"
            disabled={view.page >= view.pageCount - 1}
            onClick={() => setPage(view.page + 1)}
            data-testid="results-next"
          >
            Next
          </button>
        </nav>
      )}
    </div>
  );
}
