// Also loaded as it is by the SQLite process (sqlite/sqlite-child.ts): no runtime imports, only erasable TypeScript.
/**
 * Values from any of the three drivers, made safe for JSON.stringify without losing meaning.
 *
 * - 64-bit integers: a number when it is a safe integer, else its exact decimal string.
 * - Decimals (numeric/DECIMAL): a number when printing the number gives back the same decimal, else the string.
 * - NaN / ±Infinity: the strings "NaN", "Infinity", "-Infinity".
 * - Bytes (bytea, BLOB): `{ "$bytes": <length>, "base64": "…" }`, base64 only up to BYTES_INLINE_MAX bytes.
 * - Dates the drivers already hand over as strings stay strings; a JS Date becomes its ISO string.
 * - Arrays and objects recursively.
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** How bytes travel: always the length, the content (base64) only while it is small. */
export interface BytesValue {
  $bytes: number;
  base64?: string;
}

/** Larger byte values are summarised by their length only: nobody reads a 5 MB image in a result table. */
export const BYTES_INLINE_MAX = 256;

export function bytesToJson(bytes: Uint8Array, inlineMax = BYTES_INLINE_MAX): BytesValue {
  if (bytes.length > inlineMax) return { $bytes: bytes.length };
  return { $bytes: bytes.length, base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}

export function floatToJson(value: number): number | string {
  return Number.isFinite(value) ? value : String(value);
}

/** A 64-bit integer (bigint or its decimal text). */
export function bigintToJson(value: bigint | string): number | string {
  const big = typeof value === 'bigint' ? value : BigInt(value);
  if (big >= BigInt(Number.MIN_SAFE_INTEGER) && big <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(big);
  return big.toString();
}

/** Exact decimal text → number when the number prints back as the same decimal, else the text. */
export function decimalToJson(text: string): number | string {
  const trimmed = text.trim();
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(trimmed)) return trimmed; // NaN, Infinity, anything exotic
  const n = Number(trimmed);
  if (!Number.isFinite(n)) return trimmed;
  return normalizeDecimal(trimmed) === normalizeDecimal(String(n)) ? n : trimmed;
}

/** Canonical plain decimal: no exponent, no leading/trailing zeros, "-0" → "0". */
export function normalizeDecimal(text: string): string {
  const m = /^([+-]?)(\d*)\.?(\d*)(?:[eE]([+-]?\d+))?$/.exec(text.trim());
  if (!m) return text;
  const [, sign, intPart, fracPart, exp] = m;
  let digits = `${intPart}${fracPart}`;
  let point = intPart.length + (exp ? Number(exp) : 0);
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  }
  if (point > digits.length) digits = digits + '0'.repeat(point - digits.length);
  const whole = digits.slice(0, point).replace(/^0+/, '') || '0';
  const frac = digits.slice(point).replace(/0+$/, '');
  const body = frac ? `${whole}.${frac}` : whole;
  return sign === '-' && body !== '0' ? `-${body}` : body;
}

/**
 * JSON nested deeper than this travels as text: every later step (the answer, checkpoints, the browser) walks
 * values recursively, and a red-team test broke a thread for good with `repeat('[', 4000)::json`.
 */
export const MAX_JSON_NESTING = 64;

/** How deep arrays and objects nest in a value, counted without recursion (stops past `limit`). */
export function nestingDepth(value: unknown, limit = MAX_JSON_NESTING): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(node) ? node : Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** A json/jsonb cell's text, parsed unless it nests too deep (then it stays the JSON text it is). */
export function parseJsonText(text: string): JsonValue {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return text;
  }
  return nestingDepth(parsed) > MAX_JSON_NESTING ? text : (parsed as JsonValue);
}

/** Any driver value → JSON-safe value (see the module comment). */
export function toJsonSafe(value: unknown): JsonValue {
  if (value !== null && typeof value === 'object' && !(value instanceof Uint8Array) && !(value instanceof Date) && nestingDepth(value) > MAX_JSON_NESTING) {
    return `[JSON nested more than ${MAX_JSON_NESTING} levels deep, not shown]`;
  }
  return toJsonSafeWithin(value);
}

function toJsonSafeWithin(value: unknown): JsonValue {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return floatToJson(value);
    case 'bigint':
      return bigintToJson(value);
    case 'object':
      break;
    default:
      return String(value);
  }
  if (value instanceof Uint8Array) return bytesToJson(value) as unknown as JsonValue;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (Array.isArray(value)) return value.map(toJsonSafeWithin);
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = toJsonSafeWithin(v);
  return out;
}

/**
 * PostgreSQL timestamptz text ("2024-01-02 03:04:05.123456+05:30", in the session's zone) → ISO in UTC,
 * keeping microseconds. Values JavaScript cannot place (BC, year > 9999, ±infinity) stay as PostgreSQL wrote them.
 */
export function timestamptzToIso(text: string): string {
  const m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(\.\d+)?([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?$/.exec(text);
  if (!m) return text;
  const [, y, mo, d, h, mi, s, frac = '', sign, oh, om = '0', os = '0'] = m;
  const offsetMs = (sign === '-' ? -1 : 1) * ((Number(oh) * 60 + Number(om)) * 60 + Number(os)) * 1000;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) - offsetMs;
  const base = new Date(utc).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  if (base.length !== 24) return text;
  const fraction = frac ? frac : '';
  return `${base.slice(0, 19)}${fraction}Z`;
}

/**
 * Column names made unique so rows can be objects: the second "id" becomes "id_2" (then "id_3", …).
 * Drivers would otherwise silently keep only the last of two equal names.
 */
export function uniqueColumnNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let n = 2; seen.has(candidate); n++) candidate = `${name}_${n}`;
    seen.add(candidate);
    return candidate;
  });
}

/** Array rows + unique column names → object rows. */
export function rowsToObjects(columns: string[], rows: unknown[][]): Record<string, unknown>[] {
  return rows.map((row) => {
    const obj: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) obj[columns[i]] = row[i];
    return obj;
  });
}
