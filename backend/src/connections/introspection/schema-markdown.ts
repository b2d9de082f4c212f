import type { Dialect, MarkdownMode, SchemaTable } from '@aigis/contracts';
import { escapeTags } from '../../common/prompt-text.js';
import { displayIdent, displayQualified } from '../dialects/quote-ident.js';
import { DESCRIBE_NOTE_LIMITS, type InlineNote, layOutNote, LISTED_NOTE_CHARS, noteText, SCHEMA_NOTE_LIMITS, type TableNotes } from './table-notes.js';

export interface RenderOptions {
  dialect: Dialect;
  /** Characters the markdown may use in the prompt (the owner's notes shown inline count in it). */
  budgetChars: number;
  /** The owner's table and column notes, shown with their tables (matchTableNotes). */
  notes?: TableNotes;
}

const NO_NOTES: TableNotes = new Map();

const DIALECT_NAMES: Record<Dialect, string> = { postgres: 'PostgreSQL', mysql: 'MySQL/MariaDB', sqlite: 'SQLite' };
/** Sample rows per table in the prompt (SPEC "Agent"). */
const PROMPT_SAMPLE_ROWS = 3;
/** Sample cells are cut harder in the prompt than in the API answer: they show the shape of values, not content. */
const PROMPT_CELL_MAX = 60;
/** The shortest a table's block in the prompt can be (its header and one column). */
const MIN_TABLE_BLOCK = 40;

/**
 * The schema as prompt text, as rich as the budget allows: 'full' (columns with types and keys, foreign keys,
 * up to 3 sample rows per table) → 'no_samples' → 'columns' (names only) → 'compact' (a table list, cut with
 * "… and N more tables" if even that is too long; details then come from the describe_table tool).
 */
export function renderSchemaMarkdown(tables: SchemaTable[], options: RenderOptions): { markdown: string; markdown_mode: MarkdownMode } {
  const naming = namingFor(options.dialect, tables, options.notes);
  const header = headerLine(options.dialect, tables);
  const candidates: [MarkdownMode, () => string][] = [
    ['full', () => renderDetailed(tables, naming, true)],
    ['no_samples', () => renderDetailed(tables, naming, false)],
    ['columns', () => renderColumnNames(tables, naming)],
  ];
  for (const [markdown_mode, render] of candidates) {
    const markdown = `${header}\n\n${render()}`;
    if (markdown.length <= options.budgetChars) return { markdown, markdown_mode };
  }
  return { markdown: renderCompact(tables, naming, header, options.budgetChars), markdown_mode: 'compact' };
}

/**
 * 'selected' (a schema too large for the budget, rendered for one question): `chosen` in full, in their order,
 * within `detailShare` of the budget (samples dropped from a table before the table is dropped), then every other
 * table by name in what is left, cut with "… and N more tables".
 */
export function renderSelectedSchema(
  tables: SchemaTable[],
  chosen: SchemaTable[],
  options: RenderOptions & { detailShare: number },
): { markdown: string; markdown_mode: 'selected'; detailed: SchemaTable[] } {
  const naming = namingFor(options.dialect, tables, options.notes);
  const memo = renderMemo(tables, options.dialect);
  let out =
    `${memo.header}\n` +
    'The tables most relevant to this question are given in full below; the others are only listed: call describe_table for one before using it.';
  const detailBudget = Math.floor(options.budgetChars * options.detailShare);
  const detailed: SchemaTable[] = [];
  for (const table of chosen) {
    // A table needs a header and a column at least: below that, nothing more fits.
    if (detailBudget - out.length < MIN_TABLE_BLOCK) break;
    const fits = (block: string) => out.length + 2 + block.length <= detailBudget;
    // A table's block depends on the table, the naming (fixed per table list and dialect) and its own note.
    const note = naming.notes.get(table);
    const noteKey = note ? JSON.stringify(note) : '';
    let blocks = memo.blocks.get(table);
    if (!blocks || blocks.noteKey !== noteKey) memo.blocks.set(table, (blocks = { noteKey }));
    let block = (blocks.full ??= renderDetailed([table], naming, true));
    if (!fits(block) && table.sample_rows.length > 0) block = blocks.bare ??= renderDetailed([table], naming, false);
    if (!fits(block)) continue;
    out += `\n\n${block}`;
    detailed.push(table);
  }
  const shown = new Set(detailed);
  const rest = tables.filter((t) => !shown.has(t));
  if (rest.length > 0) out = listWithin(`${out}\n\nOther tables (call describe_table for their columns):\n`, rest, naming, options.budgetChars);
  return { markdown: out.trimEnd(), markdown_mode: 'selected', detailed };
}

/** A table list's header and rendered tables (with and without samples, with the note they were rendered with) for one dialect. */
interface RenderMemo {
  header: string;
  blocks: Map<SchemaTable, { noteKey: string; full?: string; bare?: string }>;
}

/**
 * Kept per table list (an introspection result, which is not changed once made) while it lives: a large schema is
 * selected from for every question, and the candidates that do not fit were rendered only to be dropped. A table
 * whose note changed is rendered again.
 */
const memos = new WeakMap<SchemaTable[], Map<Dialect, RenderMemo>>();

function renderMemo(tables: SchemaTable[], dialect: Dialect): RenderMemo {
  let byDialect = memos.get(tables);
  if (!byDialect) memos.set(tables, (byDialect = new Map()));
  let memo = byDialect.get(dialect);
  if (!memo) byDialect.set(dialect, (memo = { header: headerLine(dialect, tables), blocks: new Map() }));
  return memo;
}

/**
 * Everything about one table (for the describe_table tool): columns with defaults and comments, keys, samples, and
 * the owner's notes (longer than in the prompt's schema, still bounded).
 */
export function describeTableMarkdown(table: SchemaTable, options: { dialect?: Dialect; note?: InlineNote } = {}): string {
  const dialect = options.dialect ?? 'postgres';
  const naming = namingFor(dialect, [table], undefined, true);
  const notes = layOutNote(table, options.note, DESCRIBE_NOTE_LIMITS);
  const lines = [`## ${naming.label(table.schema, table.name)} (${describeSize(table)})`];
  if (table.comment) lines.push(oneLine(table.comment));
  if (notes.description) lines.push(`Note: ${notes.description}`);
  const pk = table.columns.filter((c) => c.primary_key).map((c) => displayIdent(dialect, c.name));
  for (const c of table.columns) {
    let line = `- ${displayIdent(dialect, c.name)} ${c.type || 'untyped'}`;
    if (c.primary_key) line += ' PK';
    else if (!c.nullable) line += ' NOT NULL';
    if (c.default !== null) line += ` DEFAULT ${oneLine(c.default)}`;
    if (c.comment) line += ` — ${oneLine(c.comment)}`;
    line += columnNote(notes, c.name);
    lines.push(line);
  }
  if (pk.length > 1) lines.push(`Primary key: (${pk.join(', ')})`);
  for (const fk of table.foreign_keys) lines.push(`Foreign key${fk.name ? ` ${fk.name}` : ''}: ${describeForeignKey(fk, naming)}`);
  lines.push(...trailingNotes(notes));
  if (table.sample_rows.length) lines.push('Sample rows:', ...sampleTable(table, table.sample_rows.length));
  else if (table.sample_error) lines.push(`Sample rows unavailable: ${oneLine(table.sample_error)}`);
  return lines.join('\n');
}

/**
 * Finds a table by `schema.table` or a bare name (quotes allowed), exactly first, then ignoring case. A bare name
 * found in several schemas prefers the default one (public, main), else the first.
 */
export function findTable(tables: SchemaTable[], name: string): SchemaTable | undefined {
  const parts = splitQualified(name.trim());
  if (parts.length === 0 || parts.length > 2) return undefined;
  const [schema, table] = parts.length === 2 ? parts : [null, parts[0]];
  const matches = (eq: (a: string | null, b: string | null) => boolean) =>
    tables.filter((t) => eq(t.name, table) && (schema === null || eq(t.schema, schema)));
  const exact = (a: string | null, b: string | null) => a === b;
  const folded = (a: string | null, b: string | null) => a !== null && b !== null && a.toLowerCase() === b.toLowerCase();
  const found = matches(exact).length ? matches(exact) : matches(folded);
  return found.find((t) => t.schema === 'public' || t.schema === 'main') ?? found[0];
}

/** `a.b`, `"a"."b.c"`, `` `a`.`b` `` → parts without quotes. */
function splitQualified(text: string): string[] {
  const parts: string[] = [];
  let i = 0;
  while (i < text.length) {
    const quote = text[i];
    if (quote === '"' || quote === '`' || quote === '[') {
      const close = quote === '[' ? ']' : quote;
      let part = '';
      i++;
      while (i < text.length) {
        if (text[i] === close && text[i + 1] === close && close !== ']') {
          part += close;
          i += 2;
        } else if (text[i] === close) {
          i++;
          break;
        } else part += text[i++];
      }
      parts.push(part);
    } else {
      const dot = text.indexOf('.', i);
      const end = dot === -1 ? text.length : dot;
      parts.push(text.slice(i, end).trim());
      i = end;
    }
    if (text[i] === '.') i++;
    else if (i < text.length) return [];
  }
  return parts;
}

interface Naming {
  dialect: Dialect;
  label(schema: string | null, name: string): string;
  notes: TableNotes;
}

/**
 * How table names appear: qualified unless the schema is implied (PostgreSQL's public, SQLite's main, MySQL when
 * every table lives in the connection's one database), so the model writes what the database resolves.
 */
function namingFor(dialect: Dialect, tables: SchemaTable[], notes: TableNotes = NO_NOTES, single = false): Naming {
  const schemas = new Set(tables.map((t) => t.schema));
  const implied = (schema: string | null) =>
    schema === null ||
    (dialect === 'postgres' && schema === 'public') ||
    dialect === 'sqlite' ||
    (dialect === 'mysql' && schemas.size === 1 && !single);
  return {
    dialect,
    label: (schema, name) => (implied(schema) ? displayIdent(dialect, name) : displayQualified(dialect, schema, name)),
    notes,
  };
}

function headerLine(dialect: Dialect, tables: SchemaTable[]): string {
  const views = tables.filter((t) => t.kind === 'view').length;
  const counts = `${tables.length - views} tables${views ? `, ${views} views` : ''}`;
  const schemas = new Set(tables.map((t) => t.schema));
  const where = dialect === 'mysql' && schemas.size === 1 && tables[0]?.schema ? ` ${displayIdent(dialect, tables[0].schema)}` : '';
  return `# ${DIALECT_NAMES[dialect]} database${where}: ${counts}\nWrite names exactly as shown here (quoted ones need their quotes).`;
}

function describeSize(table: SchemaTable): string {
  const kind = table.kind === 'view' ? 'view' : 'table';
  return table.row_estimate === null ? kind : `${kind}, ~${table.row_estimate} rows`;
}

function renderDetailed(tables: SchemaTable[], naming: Naming, withSamples: boolean): string {
  return tables
    .map((table) => {
      const notes = layOutNote(table, naming.notes.get(table), SCHEMA_NOTE_LIMITS);
      const lines = [`## ${naming.label(table.schema, table.name)} (${describeSize(table)})`];
      if (table.comment) lines.push(oneLine(table.comment));
      if (notes.description) lines.push(`Note: ${notes.description}`);
      const singleFks = new Map<string, string>();
      const multiFks: string[] = [];
      for (const fk of table.foreign_keys) {
        if (fk.columns.length === 1) {
          singleFks.set(fk.columns[0], `${naming.label(fk.referenced_schema, fk.referenced_table)}.${displayIdent(naming.dialect, fk.referenced_columns[0])}`);
        } else multiFks.push(`FK ${describeForeignKey(fk, naming)}`);
      }
      const pkCount = table.columns.filter((c) => c.primary_key).length;
      for (const c of table.columns) {
        let line = `- ${displayIdent(naming.dialect, c.name)} ${c.type || 'untyped'}`;
        if (c.primary_key) line += pkCount > 1 ? ' PK(part)' : ' PK';
        else if (!c.nullable) line += ' NOT NULL';
        const target = singleFks.get(c.name);
        if (target) line += ` → ${target}`;
        if (c.comment) line += ` — ${oneLine(c.comment)}`;
        line += columnNote(notes, c.name);
        lines.push(line);
      }
      lines.push(...multiFks, ...trailingNotes(notes));
      if (withSamples && table.sample_rows.length) lines.push(...sampleTable(table, PROMPT_SAMPLE_ROWS));
      return lines.join('\n');
    })
    .join('\n\n');
}

function columnNote(notes: ReturnType<typeof layOutNote>, column: string): string {
  const note = notes.columns.get(column);
  return note ? ` — note: ${note}` : '';
}

function trailingNotes(notes: ReturnType<typeof layOutNote>): string[] {
  return [...notes.dataQuality.map((q) => `Data quality: ${q}`), ...(notes.omitted ? [`(${notes.omitted} more notes left out)`] : [])];
}

/** A table's description after its name where only the name is listed. */
function listedNote(naming: Naming, table: SchemaTable): string {
  const description = naming.notes.get(table)?.description?.trim();
  return description ? ` — ${noteText(description, LISTED_NOTE_CHARS)}` : '';
}

function describeForeignKey(fk: SchemaTable['foreign_keys'][number], naming: Naming): string {
  const cols = fk.columns.map((c) => displayIdent(naming.dialect, c)).join(', ');
  const refs = fk.referenced_columns.map((c) => displayIdent(naming.dialect, c)).join(', ');
  return `(${cols}) → ${naming.label(fk.referenced_schema, fk.referenced_table)}(${refs})`;
}

function renderColumnNames(tables: SchemaTable[], naming: Naming): string {
  return tables
    .map((t) => `${naming.label(t.schema, t.name)}: ${t.columns.map((c) => displayIdent(naming.dialect, c.name)).join(', ')}${listedNote(naming, t)}`)
    .join('\n');
}

function renderCompact(tables: SchemaTable[], naming: Naming, header: string, budget: number): string {
  const intro = `${header}\nOnly table names are listed; call describe_table for a table's columns before writing SQL.\n`;
  return listWithin(intro, tables, naming, budget).trimEnd();
}

/** `out` followed by a line per table while they fit in `budget`, the rest counted in "… and N more tables". */
function listWithin(out: string, tables: SchemaTable[], naming: Naming, budget: number): string {
  for (let i = 0; i < tables.length; i++) {
    const t = tables[i]!;
    const line = `- ${naming.label(t.schema, t.name)}${t.row_estimate === null ? '' : ` (~${t.row_estimate} rows)`}${listedNote(naming, t)}`;
    const rest = tables.length - i;
    const more = `… and ${rest} more tables`;
    // Keep room for the "… and N more" line unless this is the last table.
    const reserve = rest > 1 ? more.length + 1 : 0;
    if (out.length + line.length + 1 + reserve > budget) return `${out}${more}`;
    out += `${line}\n`;
  }
  return out;
}

function sampleTable(table: SchemaTable, maxRows: number): string[] {
  const rows = table.sample_rows.slice(0, maxRows);
  const columns = Object.keys(rows[0] ?? {});
  const cell = (v: unknown) => escapeCell(formatValue(v));
  return [`| ${columns.map(escapeCell).join(' | ')} |`, ...rows.map((r) => `| ${columns.map((c) => cell(r[c])).join(' | ')} |`)];
}

function formatValue(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'object' && !Array.isArray(value) && typeof (value as { $bytes?: unknown }).$bytes === 'number') {
    return `<${(value as { $bytes: number }).$bytes} bytes>`;
  }
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const chars = Array.from(text);
  return chars.length > PROMPT_CELL_MAX ? `${chars.slice(0, PROMPT_CELL_MAX).join('')}…` : text;
}

function escapeCell(text: string): string {
  return oneLine(text).replaceAll('|', '\\|');
}

/** Database text (comments, defaults, sample values) on one line, our prompt's block tags neutralised. */
function oneLine(text: string): string {
  return escapeTags(text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ').trim());
}
