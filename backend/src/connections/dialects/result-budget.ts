import type { JsonValue } from './json-safe.js';

/**
 * Byte budgets of one query result, applied while rows are read (SPEC "Read-only execution" 3): every cell is cut
 * to `cellMaxBytes` with a visible marker, and reading stops once the rows kept reach `resultMaxBytes`.
 */
export interface ByteBudgets {
  cellMaxBytes: number;
  resultMaxBytes: number;
}

/** The defaults of RESULT_CELL_MAX_BYTES and RESULT_MAX_BYTES. */
export const DEFAULT_BUDGETS: ByteBudgets = { cellMaxBytes: 64 * 1024, resultMaxBytes: 5 * 1024 * 1024 };

/** Why a result has fewer rows than the query would return. */
export type TruncatedReason = 'row_limit' | 'result_bytes';

/** What replaces the rest of a cut value: its full size, so nobody mistakes a cut value for the whole. */
export function cutMarker(totalBytes: number): string {
  return `…[cut: ${totalBytes.toLocaleString('en-US')} bytes]`;
}

/** UTF-8 bytes of a string, without encoding it when its length already decides. */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * The text itself when it fits in `maxBytes` (UTF-8), else its longest prefix that fits together with the marker,
 * cut on a character boundary. Only a prefix of at most `maxBytes` characters is ever copied.
 */
export function cutText(text: string, maxBytes: number, totalBytes?: number): string {
  if (text.length * 3 <= maxBytes) return text;
  if (text.length <= maxBytes && utf8Bytes(text) <= maxBytes) return text;
  const total = totalBytes ?? utf8Bytes(text);
  if (total <= maxBytes) return text;
  const marker = cutMarker(total);
  const room = Math.max(0, maxBytes - utf8Bytes(marker));
  let prefix = text.slice(0, room);
  // A prefix ending inside a surrogate pair would encode a replacement character.
  if (/[\uD800-\uDBFF]$/.test(prefix)) prefix = prefix.slice(0, -1);
  const bytes = Buffer.from(prefix, 'utf8');
  if (bytes.length > room) {
    let end = room;
    while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
    prefix = bytes.subarray(0, end).toString('utf8');
  }
  return prefix + marker;
}

/** Bytes a JSON-safe value takes in a JSON answer. */
export function jsonBytes(value: JsonValue | undefined): number {
  if (value === null || value === undefined) return 4;
  if (typeof value === 'string') return utf8Bytes(JSON.stringify(value));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value).length;
  return utf8Bytes(JSON.stringify(value));
}

/**
 * A JSON-safe value within the cell budget: long text is cut with the marker; an array or object (JSON, arrays)
 * larger than the budget becomes its cut JSON text. Bytes are already summarised by their length (json-safe.ts).
 */
export function capCell(value: JsonValue, maxBytes: number): JsonValue {
  if (typeof value === 'string') return cutText(value, maxBytes);
  if (value === null || typeof value !== 'object') return value;
  if (!Array.isArray(value) && typeof value.$bytes === 'number') return value;
  const text = JSON.stringify(value);
  return utf8Bytes(text) > maxBytes ? cutText(text, maxBytes) : value;
}

/**
 * Collects rows under the row cap and the result budget, as they are read: `push` answers whether to keep reading.
 * A row that would overflow the budget ends the result (`truncated`, reason `result_bytes`); only when it would be
 * the first row is it kept, with its cells cut to share what the budget leaves.
 */
export class RowCollector {
  readonly rows: JsonValue[][] = [];
  bytes = 2;
  truncated = false;
  reason: TruncatedReason | null = null;
  private rowOverhead = 0;

  constructor(
    private readonly maxRows: number,
    private readonly budgets: ByteBudgets = DEFAULT_BUDGETS,
  ) {}

  /** Column names count once per row (rows are objects in the answer). */
  setColumns(columns: string[]): void {
    this.rowOverhead = 2 + columns.reduce((sum, c) => sum + utf8Bytes(JSON.stringify(c)) + 2, 0);
  }

  get cellMaxBytes(): number {
    return this.budgets.cellMaxBytes;
  }

  get done(): boolean {
    return this.truncated;
  }

  /** Cells already JSON-safe (and normally already cut by the adapter); cut again here, which costs nothing if so. */
  push(cells: JsonValue[]): boolean {
    if (this.truncated) return false;
    if (this.rows.length >= this.maxRows) {
      this.stop('row_limit');
      return false;
    }
    let row = cells.map((c) => capCell(c, this.budgets.cellMaxBytes));
    let size = this.rowBytes(row);
    if (this.bytes + size > this.budgets.resultMaxBytes) {
      if (this.rows.length > 0) {
        this.stop('result_bytes');
        return false;
      }
      const share = Math.max(0, Math.floor((this.budgets.resultMaxBytes - this.bytes - this.rowOverhead) / Math.max(1, row.length)) - 8);
      row = row.map((c) => capCell(c, share));
      size = this.rowBytes(row);
      this.rows.push(row);
      this.bytes += size;
      this.stop('result_bytes');
      return false;
    }
    this.rows.push(row);
    this.bytes += size;
    return true;
  }

  private stop(reason: TruncatedReason): void {
    this.truncated = true;
    this.reason = reason;
  }

  private rowBytes(row: JsonValue[]): number {
    return row.reduce<number>((sum, cell) => sum + jsonBytes(cell) + 1, this.rowOverhead);
  }
}
