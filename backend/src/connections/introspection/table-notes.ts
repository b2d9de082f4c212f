import type { SchemaTable, TableNote } from '@aigis/contracts';
import { escapeTags } from '../../common/prompt-text.js';

/** What the owner wrote about one table (knowledge), as the schema renderers need it. */
export type InlineNote = Pick<TableNote, 'description' | 'columns' | 'data_quality'>;

/** The notes of the tables the schema shows, matched once per render; a note on a table the schema hides is never used. */
export type TableNotes = ReadonlyMap<SchemaTable, InlineNote>;

/** How much of the notes one table may show: each note cut to `noteChars`, all of one table's notes within `tableChars`. */
export interface NoteLimits {
  noteChars: number;
  tableChars: number;
}

/** In the prompt's schema: short notes, a bounded share per table (the rest is in describe_table). */
export const SCHEMA_NOTE_LIMITS: NoteLimits = { noteChars: 300, tableChars: 1500 };
/** In describe_table: the notes in full length, still bounded per table. */
export const DESCRIBE_NOTE_LIMITS: NoteLimits = { noteChars: 2000, tableChars: 12_000 };
/** Below this share left, a table's further notes are counted, not cut to nothing. */
const MIN_NOTE_CHARS = 40;
/** A table's description where only its name is listed ('columns', 'compact', the other tables of 'selected'). */
export const LISTED_NOTE_CHARS = 100;

/**
 * Matches the owner's notes to the tables shown: the note's schema and table exactly, else ignoring case; a note
 * without a schema fits the table of that name in the default schema (public, main, the MySQL database), else the
 * first of that name. Notes of tables not in `tables` (excluded by policy, renamed, dropped) are left out.
 */
export function matchTableNotes(tables: readonly SchemaTable[], notes: readonly TableNote[]): TableNotes {
  const matched = new Map<SchemaTable, InlineNote>();
  if (notes.length === 0) return matched;
  const byName = new Map<string, SchemaTable[]>();
  for (const t of tables) byName.set(t.name.toLowerCase(), [...(byName.get(t.name.toLowerCase()) ?? []), t]);
  for (const note of notes) {
    const candidates = (byName.get(note.table.toLowerCase()) ?? []).filter(
      (t) => note.schema === null || (t.schema ?? '').toLowerCase() === note.schema.toLowerCase(),
    );
    const exact = candidates.filter((t) => t.name === note.table && (note.schema === null || t.schema === note.schema));
    const pool = exact.length ? exact : candidates;
    const table = pool.find((t) => t.schema === null || t.schema === 'public' || t.schema === 'main') ?? pool[0];
    if (table && !matched.has(table)) matched.set(table, note);
  }
  return matched;
}

/**
 * Owner-written text as it may appear in a schema: one line (no heading, list item or table row of its own), our
 * block tags neutralised, cut to `max` characters with the cut said.
 */
export function noteText(text: string, max: number): string {
  const line = escapeTags(text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').trim());
  const chars = Array.from(line);
  return chars.length > max ? `${chars.slice(0, max).join('')}… (cut)` : line;
}

/**
 * One table's notes laid out for a renderer within `limits`: the description line, a note per column name (matched
 * exactly, else ignoring case; notes on unknown columns are dropped) and the data-quality lines. Whatever does not
 * fit the table's share is counted in `omitted`.
 */
export function layOutNote(
  table: SchemaTable,
  note: InlineNote | undefined,
  limits: NoteLimits,
): { description: string | null; columns: Map<string, string>; dataQuality: string[]; omitted: number } {
  const out = { description: null as string | null, columns: new Map<string, string>(), dataQuality: [] as string[], omitted: 0 };
  if (!note) return out;
  let left = limits.tableChars;
  const take = (text: string): string | null => {
    if (left < MIN_NOTE_CHARS) {
      out.omitted++;
      return null;
    }
    const shown = noteText(text, Math.min(limits.noteChars, left));
    left -= shown.length;
    return shown;
  };
  if (note.description?.trim()) out.description = take(note.description);
  const byLower = new Map(table.columns.map((c) => [c.name.toLowerCase(), c.name]));
  const exact = new Set(table.columns.map((c) => c.name));
  for (const [column, text] of Object.entries(note.columns)) {
    const name = exact.has(column) ? column : byLower.get(column.toLowerCase());
    if (!name || out.columns.has(name) || !text.trim()) continue;
    const shown = take(text);
    if (shown) out.columns.set(name, shown);
  }
  for (const text of note.data_quality) {
    const shown = text.trim() ? take(text) : null;
    if (shown) out.dataQuality.push(shown);
  }
  return out;
}
