import MiniSearch from 'minisearch';
import type { IndexableExample } from '../../src/knowledge/retrieval/example-index.js';
import { textTerms } from '../../src/knowledge/retrieval/text-terms.js';

/**
 * The examples' first retrieval, kept as the reference ExampleIndex must equal: MiniSearch over question (boost 2)
 * and sql, OR-combined, its default BM25+, our terms. One copy per id, the later in the earlier place.
 */
export function miniSearchOver(examples: readonly IndexableExample[]): (question: string, k: number) => { id: string; score: number }[] {
  const byId = new Map<string, IndexableExample>();
  for (const e of examples) byId.set(e.id, e);
  const search = new MiniSearch<IndexableExample>({
    fields: ['question', 'sql'],
    idField: 'id',
    tokenize: (text) => textTerms(text),
    processTerm: (term) => term,
    searchOptions: { boost: { question: 2 }, combineWith: 'OR' },
  });
  search.addAll([...byId.values()]);
  return (question, k) =>
    search
      .search(question)
      .slice(0, k)
      .map((hit) => ({ id: String(hit.id), score: hit.score }));
}
