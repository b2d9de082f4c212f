import type { FieldPacket } from 'mysql2';
import { bigintToJson, bytesToJson, decimalToJson, type JsonValue, toJsonSafe } from '../json-safe.js';
import { capCell } from '../result-budget.js';

// Column type codes of the MySQL protocol (mysql2's constants/types).
const TYPE_DECIMAL = 0;
const TYPE_NEWDECIMAL = 246;
const TYPE_LONGLONG = 8;
const TYPE_BIT = 16;

/** Driver values → JSON-safe, by the column's protocol type (BIGINT and DECIMAL arrive as exact text). */
export function convertRow(fields: FieldPacket[], row: unknown[], cellMaxBytes = Infinity): JsonValue[] {
  return row.map((value, i) => capCell(convertValue(fields[i], value), cellMaxBytes));
}

function convertValue(field: FieldPacket | undefined, value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  const type = (field as { columnType?: number } | undefined)?.columnType;
  if (type === TYPE_LONGLONG && typeof value === 'string') return bigintToJson(value);
  if ((type === TYPE_NEWDECIMAL || type === TYPE_DECIMAL) && typeof value === 'string') return decimalToJson(value);
  if (type === TYPE_BIT && Buffer.isBuffer(value)) return bigintToJson(value.length ? BigInt(`0x${value.toString('hex')}`) : 0n);
  if (Buffer.isBuffer(value)) return bytesToJson(value) as unknown as JsonValue;
  return toJsonSafe(value);
}
