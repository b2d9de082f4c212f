import type { SchemaTable } from '@aigis/contracts';

/**
 * Which tables of a large schema a question is about, for the prompt (schema-selection.ts gives those in full).
 * Lexical, BM25 over each table's words: its name (weighted), its schema, its columns, its comment and column
 * comments. Identifiers are split at `_`, digits and camelCase and stemmed lightly, so "invoice lines" finds
 * invoice_line and "Schlüsselwörter" finds schlüsselwort. A table the question names outright (as written in
 * the database, qualified or not) ranks above every other, and so do tables the caller hints at (the
 * connection's notes and examples for the question).
 */

export interface RelevanceIndex {
  tables: SchemaTable[];
  /** term → [table index, weighted term frequency] */
  postings: Map<string, [number, number][]>;
  /** Weighted length of each table's document. */
  lengths: Float64Array;
  averageLength: number;
  /** Lower-cased `name` and `schema.name` → table indexes (several schemas may share a name). */
  byName: Map<string, number[]>;
}

export interface RankedTable {
  table: SchemaTable;
  score: number;
  /** Named in the question or hinted at: always given in full when the budget allows. */
  named: boolean;
}

const NAME_WEIGHT = 3;
const K1 = 1.2;
const B = 0.75;
/** A named table outranks any lexical score. */
const NAMED_BONUS = 1_000;
const HINT_BONUS = 500;

/** Words of an identifier or text: split at non-letters/digits, `_` and camelCase; lower-cased. */
export function words(text: string): string[] {
  return text
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u)
    .filter((w) => w.length > 1 || /\p{N}/u.test(w));
}

/**
 * A light stemmer for English and German: umlauts folded, plural and inflection endings cut until none is left
 * (so "customers", "customer" and "Schlüsselwörter", "schlüsselwort" meet).
 */
const stems = new Map<string, string>();

export function stem(word: string): string {
  const known = stems.get(word);
  if (known !== undefined) return known;
  const result = stemUncached(word);
  // Identifiers repeat across tables and questions; the cache is bounded so hostile text cannot grow it without end.
  if (stems.size < 100_000) stems.set(word, result);
  return result;
}

function stemUncached(word: string): string {
  let current = word.normalize('NFD').replace(/\p{M}/gu, '').replace(/ß/g, 'ss');
  for (let round = 0; round < 3; round++) {
    const suffix = ['ies', 'es', 'en', 'er', 's', 'n', 'e'].find((s) => current.endsWith(s) && current.length - s.length >= 4);
    if (!suffix) break;
    current = suffix === 'ies' ? `${current.slice(0, -3)}y` : current.slice(0, -suffix.length);
  }
  return current;
}

function terms(text: string | null | undefined): string[] {
  return text ? words(text).map(stem) : [];
}

export function buildRelevanceIndex(tables: SchemaTable[]): RelevanceIndex {
  const postings = new Map<string, [number, number][]>();
  const lengths = new Float64Array(tables.length);
  const byName = new Map<string, number[]>();
  tables.forEach((table, i) => {
    const tf = new Map<string, number>();
    const add = (list: string[], weight: number) => {
      for (const term of list) tf.set(term, (tf.get(term) ?? 0) + weight);
    };
    add(terms(table.name), NAME_WEIGHT);
    add(terms(table.schema), 1);
    add(terms(table.comment), 1);
    for (const column of table.columns) {
      add(terms(column.name), 1);
      add(terms(column.comment), 0.5);
    }
    let length = 0;
    for (const [term, weight] of tf) {
      length += weight;
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push([i, weight]);
    }
    lengths[i] = length;
    for (const key of [table.name.toLowerCase(), table.schema ? `${table.schema}.${table.name}`.toLowerCase() : null]) {
      if (!key) continue;
      const list = byName.get(key);
      if (list) list.push(i);
      else byName.set(key, [i]);
    }
  });
  const averageLength = tables.length ? lengths.reduce((a, b) => a + b, 0) / tables.length : 1;
  return { tables, postings, lengths, averageLength, byName };
}

/** Tables the question names as the database spells them: `name`, `schema.name`, quoted or not, any case. */
function namedInQuestion(index: RelevanceIndex, question: string): Set<number> {
  const named = new Set<number>();
  const text = question.toLowerCase().replace(/["`[\]]/g, '');
  const mark = (key: string) => {
    const found = index.byName.get(key);
    for (const i of found ?? []) named.add(i);
    return found !== undefined;
  };
  for (const token of text.match(/[\p{L}\p{N}_$]+(?:\s*\.\s*[\p{L}\p{N}_$]+)?/gu) ?? []) {
    const key = token.replace(/\s+/g, '');
    if (!mark(key) && key.includes('.')) for (const part of key.split('.')) mark(part);
  }
  // Names with spaces ("order items") are not single tokens.
  for (const [name, list] of index.byName) if (name.includes(' ') && text.includes(name)) for (const i of list) named.add(i);
  return named;
}

/** Every table with a score above zero, best first; ties keep the schema's order. */
export function rankTables(index: RelevanceIndex, question: string, hints: { tables?: readonly string[] } = {}): RankedTable[] {
  const n = index.tables.length;
  const scores = new Float64Array(n);
  const queryTerms = new Set(terms(question));
  for (const term of queryTerms) {
    const list = index.postings.get(term);
    if (!list) continue;
    const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
    for (const [i, tf] of list) {
      scores[i]! += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * index.lengths[i]!) / index.averageLength));
    }
  }
  const named = namedInQuestion(index, question);
  for (const i of named) scores[i]! += NAMED_BONUS;
  for (const hint of hints.tables ?? []) {
    for (const i of index.byName.get(hint.toLowerCase()) ?? index.byName.get(hint.toLowerCase().split('.').pop()!) ?? []) {
      scores[i]! += HINT_BONUS;
      named.add(i);
    }
  }
  const ranked: RankedTable[] = [];
  for (let i = 0; i < n; i++) if (scores[i]! > 0) ranked.push({ table: index.tables[i]!, score: scores[i]!, named: named.has(i) });
  return ranked.sort((a, b) => b.score - a.score);
}
