import crypto from 'node:crypto';

/** Text folded for comparison: case, runs of white space, a trailing semicolon. */
export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').replace(/[\s;]+$/, '').trim();
}

/** A glossary term's identity: "MRR", " mrr " and "Mrr" are one term. */
export function termKey(term: string): string {
  return normaliseText(term);
}

function hash(parts: string[]): string {
  return crypto.createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/** The same question with the same SQL (ignoring case, spacing and a final semicolon) is one example. */
export function exampleKey(question: string, sql: string): string {
  return hash(['example', normaliseText(question), normaliseText(sql)]);
}

/**
 * A learning's identity: what was learned about which tables, and the SQL that worked. A repeat of it (the
 * same correction met again) raises its confidence; another wording of the lesson is another learning.
 */
export function learningKey(learning: { category: string; tables: string[]; working_sql: string; lesson: string }): string {
  const tables = [...new Set(learning.tables.map(normaliseText))].sort();
  return hash(['learning', learning.category, tables.join(','), normaliseText(learning.working_sql), normaliseText(learning.lesson)]);
}
