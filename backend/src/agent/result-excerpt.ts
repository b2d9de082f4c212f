/**
 * What a prompt carries of a query result: a few rows, each value shortened, the whole within a character budget.
 * The table the user sees is not affected; a prompt never grows with the size of a value or of the result.
 */
export interface ExcerptLimits {
  rows: number;
  cellChars: number;
  totalChars: number;
}

export const TOOL_RESULT_EXCERPT: ExcerptLimits = { rows: 20, cellChars: 80, totalChars: 4000 };
export const CHART_SAMPLE_EXCERPT: ExcerptLimits = { rows: 5, cellChars: 80, totalChars: 2000 };

const CUT_MARKER = /…\[cut: ([\d,]+) bytes\]$/;

/** One value as short text; a value longer than `maxChars` says how long it was (its full size when it was cut). */
export function excerptValue(value: unknown, maxChars: number): string {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (text.length <= maxChars) return text;
  const size = CUT_MARKER.exec(text)?.[1] ?? Buffer.byteLength(text, 'utf8').toLocaleString('en-US');
  const note = `…[${size} bytes]`;
  return `${Array.from(text.slice(0, maxChars)).slice(0, Math.max(0, maxChars - note.length)).join('')}${note}`;
}

/** The first rows with every value shortened (for JSON in a prompt). */
export function excerptRows(columns: string[], rows: Record<string, unknown>[], limits: ExcerptLimits): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  let chars = 2;
  for (const row of rows.slice(0, limits.rows)) {
    const short: Record<string, string> = {};
    for (const column of columns) short[column] = excerptValue(row[column], limits.cellChars);
    chars += JSON.stringify(short).length + 1;
    if (out.length > 0 && chars > limits.totalChars) break;
    out.push(short);
  }
  return out;
}

/** The first rows as a markdown table, within `limits.totalChars`. */
export function excerptTable(columns: string[], rows: Record<string, unknown>[], limits: ExcerptLimits): { table: string; shown: number } {
  const cell = (v: unknown) => excerptValue(v, limits.cellChars).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = [`| ${columns.map((c) => cell(c)).join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`];
  let chars = lines.join('\n').length;
  let shown = 0;
  for (const row of rows.slice(0, limits.rows)) {
    const line = `| ${columns.map((c) => cell(row[c])).join(' | ')} |`;
    if (shown > 0 && chars + line.length + 1 > limits.totalChars) break;
    lines.push(line);
    chars += line.length + 1;
    shown++;
  }
  let table = lines.join('\n');
  // Hundreds of columns can overflow even one row: the budget holds whatever the shape.
  if (table.length > limits.totalChars) table = `${table.slice(0, limits.totalChars)}\n… (cut)`;
  return { table, shown };
}
