import type { Dialect, MarkdownMode, SchemaTable } from '@aigis/contracts';
import { renderSelectedSchema } from './schema-markdown.js';
import { rankTables, type RelevanceIndex } from './table-relevance.js';
import type { TableNotes } from './table-notes.js';

/** Share of the prompt budget for the tables given in full; the rest lists the other tables by name. */
export const DETAIL_SHARE = 0.7;
const MAX_CANDIDATES = 150;

export interface QuestionSchemaOptions {
  dialect: Dialect;
  budgetChars: number;
  /** Tables the connection's knowledge ties to this question (notes, examples): given in full first. */
  hintTables?: readonly string[];
  /** The owner's table and column notes, shown with the tables (counted in the budget). */
  notes?: TableNotes;
}

/**
 * The schema for one question when the whole schema does not fit the prompt in detail: the tables the question
 * names (and the tables their foreign keys point to, which a join needs), then the best lexical matches, each in
 * full while the budget lasts; every other table by name, for describe_table.
 */
export function schemaForQuestion(
  index: RelevanceIndex,
  question: string,
  options: QuestionSchemaOptions,
): { markdown: string; markdown_mode: MarkdownMode; detailed: SchemaTable[] } {
  const ranked = rankTables(index, question, { tables: options.hintTables });
  const named = ranked.filter((r) => r.named).map((r) => r.table);
  const byKey = new Map(index.tables.map((t) => [`${t.schema ?? ''}\u0000${t.name}`, t]));
  const neighbours = named.flatMap((t) =>
    t.foreign_keys.map((fk) => byKey.get(`${fk.referenced_schema ?? t.schema ?? ''}\u0000${fk.referenced_table}`)).filter((n): n is SchemaTable => n !== undefined),
  );
  // Far more candidates than ever fit: tables beyond them would only be rendered to be dropped.
  const chosen = [...new Set([...named, ...neighbours, ...ranked.slice(0, MAX_CANDIDATES).map((r) => r.table)])];
  return renderSelectedSchema(index.tables, chosen, { dialect: options.dialect, budgetChars: options.budgetChars, detailShare: DETAIL_SHARE, notes: options.notes });
}
