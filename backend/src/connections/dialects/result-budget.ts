import { cutText, utf8Bytes } from './cut-text.js';
import type { JsonValue } from './json-safe.js';

export { cutMarker, cutText, utf8Bytes } from './cut-text.js';

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
