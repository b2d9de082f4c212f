import MiniSearch from 'minisearch';
import { textTerms } from './text-terms.js';

export interface IndexableExample {
  id: string;
  question: string;
  sql: string;
}

export interface RankedExample<E extends IndexableExample = IndexableExample> {
  example: E;
  score: number;
}

/**
 * A BM25+ index (MiniSearch) over a connection's examples: the question counts twice as much as the words of
 * the SQL (table and column names). Built once per set of examples; `top` is pure and synchronous.
 */
export class ExampleIndex<E extends IndexableExample = IndexableExample> {
  private readonly search: MiniSearch<E>;
  private readonly byId = new Map<string, E>();

  constructor(examples: readonly E[]) {
    this.search = new MiniSearch<E>({
      fields: ['question', 'sql'],
      idField: 'id',
      tokenize: (text) => textTerms(text),
      // textTerms already folded and stemmed each word.
      processTerm: (term) => term,
      searchOptions: { boost: { question: 2 }, combineWith: 'OR' },
    });
    for (const example of examples) this.byId.set(example.id, example);
    this.search.addAll([...this.byId.values()]);
  }

  get size(): number {
    return this.byId.size;
  }

  /** The k examples most similar to the question, best first; none when no word is shared. */
  top(question: string, k: number): RankedExample<E>[] {
    if (k <= 0 || this.byId.size === 0) return [];
    if (textTerms(question).length === 0) return [];
    return this.search
      .search(question)
      .slice(0, k)
      .map((hit) => ({ example: this.byId.get(String(hit.id))!, score: hit.score }));
  }
}
