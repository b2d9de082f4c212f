/** Pure helpers behind the results table: sorting, CSV export and cell text (paging: ui/paging.ts). */

export type Row = Record<string, unknown>;
export type SortDirection = 'asc' | 'desc';
export interface SortState {
  column: string;
  direction: SortDirection;
}

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** Orders values of one column: numbers numerically, text naturally; empty values always last. */
export function compareValues(a: unknown, b: unknown): number {
  const aEmpty = a === null || a === undefined;
  const bEmpty = b === null || b === undefined;
  if (aEmpty || bEmpty) return aEmpty === bEmpty ? 0 : aEmpty ? 1 : -1;
  const na = asNumber(a);
  const nb = asNumber(b);
  if (na !== null && nb !== null) return na - nb;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return collator.compare(cellText(a), cellText(b));
}

/** A stable sort (equal rows keep the database's order); empty values stay last in both directions. */
export function sortRows(rows: readonly Row[], sort: SortState | null): Row[] {
  if (!sort) return rows.slice();
  const sign = sort.direction === 'asc' ? 1 : -1;
  return rows
    .map((row, index) => ({ row, index }))
    .sort((x, y) => {
      const a = x.row[sort.column];
      const b = y.row[sort.column];
      const aEmpty = a === null || a === undefined;
      const bEmpty = b === null || b === undefined;
      if (aEmpty || bEmpty) return aEmpty === bEmpty ? x.index - y.index : aEmpty ? 1 : -1;
      return sign * compareValues(a, b) || x.index - y.index;
    })
    .map((x) => x.row);
}

/** Clicking a header: ascending, then descending, then back to the database's order. */
export function nextSort(current: SortState | null, column: string): SortState | null {
  if (!current || current.column !== column) return { column, direction: 'asc' };
  if (current.direction === 'asc') return { column, direction: 'desc' };
  return null;
}

/**
 * RFC 4180 CSV: fields with a comma, quote, CR or LF are quoted and quotes doubled; NULL is empty.
 * Text that a spreadsheet would run as a formula is neutralised (OWASP's CSV injection rule).
 */
export function toCsv(columns: readonly string[], rows: readonly Row[]): string {
  const lines = [columns.map((c) => csvField(neutraliseFormula(c))), ...rows.map((row) => columns.map((c) => csvField(csvValue(row[c]))))];
  return lines.map((fields) => fields.join(',')).join('\r\n') + '\r\n';
}

function csvValue(value: unknown): string {
  if (value === null || value === undefined) return '';
  // Numbers, booleans and JSON cannot start a formula; only text from the database can.
  return typeof value === 'string' ? neutraliseFormula(value) : cellText(value);
}

const FORMULA_START = /^[=+\-@\t\r]/;
/** A plain decimal number, as NUMERIC and BIGINT columns arrive: a spreadsheet reads it as a number, not a formula. */
const PLAIN_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Text starting with =, +, -, @, tab or CR gets a leading ' so a spreadsheet shows it instead of
 * running it (`=HYPERLINK(…)` would send cell values to any site). A numeric string such as
 * "-12.50" stays as it is, so a column of negative amounts is still numbers.
 */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The text of one cell (objects and arrays as JSON, as the database would print them). */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Numbers arrive as numbers or, for NUMERIC/BIGINT, as numeric strings; both sort as numbers. */
function asNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(value.trim())) return Number(value);
  return null;
}

export function isNumericColumn(rows: readonly Row[], column: string): boolean {
  let seen = false;
  for (const row of rows.slice(0, 50)) {
    const v = row[column];
    if (v === null || v === undefined) continue;
    if (asNumber(v) === null) return false;
    seen = true;
  }
  return seen;
}
