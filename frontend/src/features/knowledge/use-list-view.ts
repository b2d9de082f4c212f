import { useMemo, useState } from 'react';
import { pageOf } from '../../ui/paging';
import { filterItems, PAGE_SIZE } from './knowledge-model';

/** A knowledge list as shown: filtered by the words typed, then a page at a time (the page clamped to the list). */
export function useListView<T>(items: readonly T[], text: (item: T) => string) {
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(0);
  const matching = useMemo(() => filterItems(items, query, text), [items, query, text]);
  const view = pageOf(matching, page, PAGE_SIZE);
  return {
    ...view,
    total: matching.length,
    onPage: setPage,
    query,
    setQuery: (q: string) => {
      setQuery(q);
      setPage(0);
    },
    /** Worth a filter box: more than one page, or a filter already typed. */
    filterable: items.length > PAGE_SIZE || query !== '',
  };
}
