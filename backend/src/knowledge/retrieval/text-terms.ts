/**
 * Words for lexical retrieval: split on anything that is not a letter or digit (so `customer_id`,
 * `"Order Items"` and `orders.total` give their words), camelCase split, folded, stop words and SQL
 * keywords dropped, and a light English plural stemmer so "customers" meets the `customer` table.
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be by did do does for from had has have how i if in into is it its many me much my of on or per ' +
    'show than that the their them then there these this those to was were what when where which who whose why will with ' +
    'list give find get tell all each every any number count total ' +
    // SQL keywords: every query has them, so they say nothing about which one is similar.
    'select distinct where group order having limit offset join inner left right outer full cross natural using ' +
    'union intersect except case else end not null like ilike between exists cast coalesce over partition desc asc ' +
    'with recursive true false nulls first last lateral'
  ).split(' '),
);

export function textTerms(text: string): string[] {
  const out: string[] = [];
  const words = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^\p{L}\p{N}]+/u);
  for (const word of words) {
    const term = stem(word.toLowerCase());
    if (term.length > 1 && !STOP_WORDS.has(term) && !STOP_WORDS.has(word.toLowerCase())) out.push(term);
  }
  return out;
}

/** Plural endings only: enough for table names against questions, without a language model. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(xes|ches|shes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s')) return word.slice(0, -1);
  return word;
}
