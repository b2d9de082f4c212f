/** Pure helpers behind the Knowledge screens: form values ⇄ API input, client-side bounds, import files. */
import { type GlossaryEntry, type GlossaryEntryInput, KNOWLEDGE_FIELD_LIMITS, type KnowledgeImportResult, type Learning, type LearningCategory, type LearningPatch, type TableNote, type TableNoteInput } from '@aigis/contracts';

/**
 * The API's bounds, checked before sending so a person hears about them at once; the API checks them again
 * (its error is shown if the two ever disagree).
 */
export const LIMITS = {
  ...KNOWLEDGE_FIELD_LIMITS,
  /** The API's default KNOWLEDGE_IMPORT_MAX_BYTES (an instance set lower answers 413 PAYLOAD_TOO_LARGE). */
  importBytes: 16 * 1024 * 1024,
} as const;

/** Rows shown per page in every knowledge list. */
export const PAGE_SIZE = 20;

/** The items whose text holds every word of the query (any case); all of them for an empty query. */
export function filterItems<T>(items: readonly T[], query: string, text: (item: T) => string): readonly T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return items;
  return items.filter((item) => {
    const haystack = text(item).toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

function tooLong(value: string, max: number): string | undefined {
  return value.length > max ? `At most ${max.toLocaleString()} characters (this has ${value.length.toLocaleString()}).` : undefined;
}

/** A list typed one item a line: each line a bounded item, at most `LIMITS.listItems` of them. */
function listError(text: string): string | undefined {
  const items = parseLines(text);
  if (items.length > LIMITS.listItems) return `At most ${LIMITS.listItems} lines (this has ${items.length}).`;
  const long = items.find((line) => line.length > LIMITS.text);
  return long ? `Each line at most ${LIMITS.text.toLocaleString()} characters.` : undefined;
}

/** Trimmed text, or null when nothing is left (the API's "not set"). */
export function optionalText(value: string): string | null {
  const trimmed = value.trim();
  return trimmed ? trimmed : null;
}

/** One item a line, trimmed, blank lines dropped. */
export function parseLines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

function compact<K extends string>(errors: Record<K, string | undefined>): FieldErrors<K> {
  return Object.fromEntries(Object.entries(errors).filter(([, v]) => v !== undefined)) as FieldErrors<K>;
}

// ── Glossary ────────────────────────────────────────────────────────────────────────────────────────

export interface GlossaryFormValues {
  term: string;
  definition: string;
  sql: string;
  unit: string;
  /** One caveat a line. */
  caveats: string;
}

export const emptyGlossaryForm = (): GlossaryFormValues => ({ term: '', definition: '', sql: '', unit: '', caveats: '' });

export function glossaryFormFrom(entry: GlossaryEntry): GlossaryFormValues {
  return { term: entry.term, definition: entry.definition, sql: entry.sql ?? '', unit: entry.unit ?? '', caveats: entry.caveats.join('\n') };
}

export function validateGlossary(v: GlossaryFormValues): FieldErrors<keyof GlossaryFormValues> {
  return compact({
    term: v.term.trim() ? tooLong(v.term.trim(), LIMITS.term) : 'Name the term.',
    definition: v.definition.trim() ? tooLong(v.definition.trim(), LIMITS.text) : 'Say what it means here.',
    sql: tooLong(v.sql.trim(), LIMITS.sql),
    unit: tooLong(v.unit.trim(), LIMITS.unit),
    caveats: listError(v.caveats),
  });
}

export function toGlossaryInput(v: GlossaryFormValues): GlossaryEntryInput {
  return { term: v.term.trim(), definition: v.definition.trim(), sql: optionalText(v.sql), unit: optionalText(v.unit), caveats: parseLines(v.caveats) };
}

// ── Example queries ────────────────────────────────────────────────────────────────────────────────

export interface ExampleFormValues {
  question: string;
  sql: string;
}

export function validateExample(v: ExampleFormValues): FieldErrors<keyof ExampleFormValues> {
  return compact({
    question: v.question.trim() ? tooLong(v.question.trim(), LIMITS.text) : 'Write the question this SQL answers.',
    sql: v.sql.trim() ? tooLong(v.sql.trim(), LIMITS.sql) : 'Write the SQL that answers it.',
  });
}

// ── Learned corrections ────────────────────────────────────────────────────────────────────────────

export interface LearningFormValues {
  category: LearningCategory;
  lesson: string;
  /** Comma-separated table names. */
  tables: string;
  failedSql: string;
  workingSql: string;
}

export function learningFormFrom(l: Learning): LearningFormValues {
  return { category: l.category, lesson: l.lesson, tables: l.tables.join(', '), failedSql: l.failed_sql ?? '', workingSql: l.working_sql };
}

/** `"orders, public.customers,, orders"` → `["orders", "public.customers"]` (order kept, repeats dropped). */
export function parseTableList(text: string): string[] {
  return [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];
}

export function validateLearning(v: LearningFormValues): FieldErrors<keyof LearningFormValues> {
  const tables = parseTableList(v.tables);
  return compact({
    category: undefined,
    lesson: v.lesson.trim() ? tooLong(v.lesson.trim(), LIMITS.text) : 'Say what was learned.',
    tables:
      tables.length > LIMITS.columns
        ? `At most ${LIMITS.columns} tables.`
        : tables.some((t) => t.length > LIMITS.name)
          ? `A table name has at most ${LIMITS.name} characters.`
          : undefined,
    failedSql: tooLong(v.failedSql.trim(), LIMITS.sql),
    workingSql: v.workingSql.trim() ? tooLong(v.workingSql.trim(), LIMITS.sql) : 'The SQL that worked is what makes this a correction.',
  });
}

export function toLearningPatch(v: LearningFormValues): LearningPatch {
  return {
    category: v.category,
    lesson: v.lesson.trim(),
    tables: parseTableList(v.tables),
    failed_sql: optionalText(v.failedSql),
    working_sql: v.workingSql.trim(),
  };
}

/** "recorded 15 times": how often the assistant learned the same thing (the confidence the prompt ranks by). */
export function confidenceLabel(confidence: number): string {
  const n = Number.isFinite(confidence) ? Math.max(0, Math.round(confidence)) : 0;
  return n === 1 ? 'recorded once' : `recorded ${n.toLocaleString()} times`;
}

/** Highest confidence first (the order the prompt takes them in); equal ones most recently updated first. */
export function sortLearnings(list: readonly Learning[]): Learning[] {
  return [...list].sort((a, b) => b.confidence - a.confidence || b.updated_at.localeCompare(a.updated_at));
}

// ── Table and column notes ─────────────────────────────────────────────────────────────────────────

export interface TableNoteFormValues {
  description: string;
  /** One note a line. */
  dataQuality: string;
  /** Column name → note, for every column of the table (empty: no note). */
  columns: Record<string, string>;
}

export function tableNoteFormFrom(note: TableNote | undefined, columns: readonly string[]): TableNoteFormValues {
  return {
    description: note?.description ?? '',
    dataQuality: (note?.data_quality ?? []).join('\n'),
    columns: Object.fromEntries(columns.map((c) => [c, note?.columns[c] ?? ''])),
  };
}

export function validateTableNote(v: TableNoteFormValues): FieldErrors<keyof TableNoteFormValues> {
  const long = Object.entries(v.columns).find(([, note]) => note.trim().length > LIMITS.text);
  return compact({
    description: tooLong(v.description.trim(), LIMITS.text),
    dataQuality: listError(v.dataQuality),
    columns: long ? `The note on ${long[0]} is longer than ${LIMITS.text.toLocaleString()} characters.` : undefined,
  });
}

/** Empty notes are left out: a column without a note has none. */
export function toTableNoteInput(table: { schema: string | null; name: string }, v: TableNoteFormValues): TableNoteInput {
  const columns: Record<string, string> = {};
  for (const [name, note] of Object.entries(v.columns)) if (note.trim()) columns[name] = note.trim();
  return { schema: table.schema, table: table.name, description: optionalText(v.description), data_quality: parseLines(v.dataQuality), columns };
}

export function hasNotes(note: TableNote | undefined): boolean {
  return Boolean(note && (note.description || note.data_quality.length > 0 || Object.keys(note.columns).length > 0));
}

// ── Export and import ──────────────────────────────────────────────────────────────────────────────

/** `aigis-knowledge-<name>-2026-11-23.json`, safe as a file name on every system. */
export function exportFileName(connectionName: string, now: Date): string {
  const slug = connectionName.normalize('NFKD').replace(/[^\w.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'connection';
  return `aigis-knowledge-${slug}-${now.toISOString().slice(0, 10)}.json`;
}

export type ImportFileResult = { ok: true; body: unknown } | { ok: false; message: string };

/**
 * Reads an import file in the browser: refuses one over the size bound before reading it, and one that is
 * not a JSON object. What it holds is for the API to validate.
 */
export async function readImportFile(file: { size: number; text(): Promise<string> }): Promise<ImportFileResult> {
  if (file.size === 0) return { ok: false, message: 'The file is empty.' };
  if (file.size > LIMITS.importBytes) {
    return { ok: false, message: `The file is ${(file.size / 1024 / 1024).toFixed(1)} MB; at most ${LIMITS.importBytes / 1024 / 1024} MB can be imported.` };
  }
  let body: unknown;
  try {
    body = JSON.parse(await file.text());
  } catch {
    return { ok: false, message: 'The file is not JSON. Choose a file exported from a Knowledge page.' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { ok: false, message: 'The file holds no knowledge export (a JSON object was expected).' };
  }
  return { ok: true, body };
}

/** "2 terms added, 1 updated; 3 examples added, 1 rejected; …": what an import did, in one line. */
export function describeImport(r: KnowledgeImportResult): string {
  const counts = (kind: string, parts: Record<string, number>) => {
    const said = Object.entries(parts)
      .filter(([, n]) => n > 0)
      .map(([what, n]) => `${n.toLocaleString()} ${what}`);
    return said.length ? `${kind}: ${said.join(', ')}` : null;
  };
  const parts = [
    r.instructions !== 'kept' ? `instructions ${r.instructions}` : null,
    counts('terms', r.glossary),
    counts('table notes', r.tables),
    counts('examples', r.examples),
    counts('corrections', r.learnings),
  ].filter((p): p is string => p !== null);
  return parts.length ? parts.join('; ') : 'nothing new';
}
