/** The filter box above a long knowledge list. */
export function ListFilter({ list, label, testId }: { list: { query: string; setQuery(q: string): void; filterable: boolean; total: number }; label: string; testId: string }) {
  if (!list.filterable) return null;
  return (
    <div className="knowledge-row">
      <input type="search" value={list.query} onChange={(e) => list.setQuery(e.target.value)} placeholder={label} aria-label={label} className="knowledge-filter" data-testid={testId} />
      {list.query && <small className="muted">{list.total.toLocaleString()} matching</small>}
    </div>
  );
}
