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

/** The fields searched, in scoring order, and their weights: the question counts twice as much as the SQL's words. */
const FIELDS = [
  { name: 'question', boost: 2 },
  { name: 'sql', boost: 1 },
] as const;
/** BM25+ parameters (MiniSearch's defaults). */
const K = 1.2;
const B = 0.7;
const D = 0.5;

/** One field's postings of a term: example numbers (ascending) and term frequencies, in typed arrays. */
interface FieldPostings {
  docs: Int32Array;
  tfs: Float64Array;
}

/**
 * A BM25+ index over a connection's examples, scored exactly as MiniSearch 7 scores `search(question)` with
 * fields question (boost 2) and sql, OR-combined terms and its default BM25+ parameters, ties in MiniSearch's
 * order: the same examples in the same order with the same scores (example-index.spec.ts checks it against
 * MiniSearch). Postings are typed arrays and scores one Float64Array, so a question costs a pass over its terms'
 * postings instead of a result object per matching example (MiniSearch's search took 13 ms p50 with 10,000
 * examples; see README "Retrieval cost"). Built once per set of examples; `top` is pure and synchronous.
 */
export class ExampleIndex<E extends IndexableExample = IndexableExample> {
  private readonly examples: E[];
  /** term → postings per field (index as FIELDS). */
  private readonly postings = new Map<string, (FieldPostings | undefined)[]>();
  /** Distinct terms per example and field, and their running averages (as MiniSearch computes them). */
  private readonly lengths: Float64Array[];
  private readonly averageLengths: number[];
  // Scratch per question, reused: a question is scored in one synchronous pass.
  private readonly scores: Float64Array;
  private readonly termScores: Float64Array;
  private readonly quality: Int32Array;
  private readonly lastSpec: Int32Array;
  private readonly firstSeen: Int32Array;

  constructor(examples: readonly E[]) {
    // Ids are unique (the store never holds two): a later copy replaces the earlier one in its place.
    const byId = new Map<string, E>();
    for (const example of examples) byId.set(example.id, example);
    this.examples = [...byId.values()];
    const n = this.examples.length;
    this.lengths = FIELDS.map(() => new Float64Array(n));
    this.averageLengths = FIELDS.map(() => 0);
    const building = new Map<string, { docs: number[]; tfs: number[] }[]>();
    this.examples.forEach((example, doc) => {
      FIELDS.forEach((field, f) => {
        const tokens = textTerms(example[field.name]);
        const length = new Set(tokens).size;
        this.lengths[f]![doc] = length;
        this.averageLengths[f] = (this.averageLengths[f]! * doc + length) / (doc + 1);
        for (const term of tokens) {
          let perField = building.get(term);
          if (!perField) building.set(term, (perField = FIELDS.map(() => ({ docs: [], tfs: [] }))));
          const list = perField[f]!;
          if (list.docs.at(-1) === doc) list.tfs[list.tfs.length - 1]! += 1;
          else {
            list.docs.push(doc);
            list.tfs.push(1);
          }
        }
      });
    });
    for (const [term, perField] of building) {
      this.postings.set(term, perField.map((list) => (list.docs.length ? { docs: Int32Array.from(list.docs), tfs: Float64Array.from(list.tfs) } : undefined)));
    }
    this.scores = new Float64Array(n);
    this.termScores = new Float64Array(n);
    this.quality = new Int32Array(n);
    this.lastSpec = new Int32Array(n).fill(-1);
    this.firstSeen = new Int32Array(n).fill(-1);
  }

  get size(): number {
    return this.examples.length;
  }

  /** The k examples most similar to the question, best first; none when no word is shared. */
  top(question: string, k: number): RankedExample<E>[] {
    if (k <= 0 || this.examples.length === 0) return [];
    const queryTerms = textTerms(question);
    if (queryTerms.length === 0) return [];
    const { scores, termScores, quality, lastSpec, firstSeen } = this;
    const n = this.examples.length;
    const touched: number[] = [];
    const distinct = new Set<string>();
    // Every occurrence of a term scores again (as MiniSearch's query specs do); quality counts distinct terms.
    queryTerms.forEach((term, spec) => {
      const perField = this.postings.get(term);
      if (!perField) return;
      // A repeated term matches the examples it matched before: they already count it once.
      const repeated = distinct.has(term);
      distinct.add(term);
      const seenNow: number[] = [];
      FIELDS.forEach((field, f) => {
        const list = perField[f];
        if (!list) return;
        const matching = list.docs.length;
        const idf = Math.log(1 + (n - matching + 0.5) / (matching + 0.5));
        const average = this.averageLengths[f]!;
        const lengths = this.lengths[f]!;
        for (let i = 0; i < matching; i++) {
          const doc = list.docs[i]!;
          const tf = list.tfs[i]!;
          const weighted = field.boost * (idf * (D + (tf * (K + 1)) / (tf + K * (1 - B + (B * lengths[doc]!) / average))));
          if (lastSpec[doc] !== spec) {
            lastSpec[doc] = spec;
            termScores[doc] = weighted;
            seenNow.push(doc);
          } else termScores[doc]! += weighted;
        }
      });
      // The term's score joins the example's total in query order (MiniSearch's OR fold), so sums round alike.
      for (const doc of seenNow) {
        if (firstSeen[doc] === -1) {
          firstSeen[doc] = touched.length;
          touched.push(doc);
          scores[doc] = termScores[doc]!;
        } else scores[doc]! += termScores[doc]!;
        if (!repeated) quality[doc]! += 1;
      }
    });
    // The k best, best first; a tie keeps the example matched first (MiniSearch's stable sort of its result map).
    // `touched` is in first-matched order, so a later example must score strictly higher to pass an earlier one.
    const best: { doc: number; score: number }[] = [];
    for (const doc of touched) {
      const score = scores[doc]! * (quality[doc]! || 1);
      if (best.length === k && score <= best[k - 1]!.score) continue;
      let at = best.length;
      while (at > 0 && best[at - 1]!.score < score) at--;
      best.splice(at, 0, { doc, score });
      if (best.length > k) best.pop();
    }
    const out = best.map((r) => ({ example: this.examples[r.doc]!, score: r.score }));
    for (const doc of touched) {
      scores[doc] = 0;
      termScores[doc] = 0;
      quality[doc] = 0;
      lastSpec[doc] = -1;
      firstSeen[doc] = -1;
    }
    return out;
  }
}
