import pg from 'pg';
import { bigintToJson, bytesToJson, decimalToJson, floatToJson, parseJsonText, timestamptzToIso } from '../json-safe.js';
import { cutText, utf8Bytes } from '../result-budget.js';

type Parser = (text: string) => unknown;

// Type OIDs from pg_type.h (stable across PostgreSQL versions).
const OID = {
  bool: 16,
  bytea: 17,
  int8: 20,
  int2: 21,
  int4: 23,
  oid: 26,
  json: 114,
  float4: 700,
  float8: 701,
  numeric: 1700,
  date: 1082,
  timestamp: 1114,
  timestamptz: 1184,
  jsonb: 3802,
} as const;

const identity: Parser = (text) => text;

const scalarParsers: Record<number, Parser> = {
  [OID.bool]: (t) => t === 't',
  [OID.int2]: Number,
  [OID.int4]: Number,
  [OID.oid]: Number,
  [OID.int8]: (t) => bigintToJson(t),
  [OID.float4]: (t) => floatToJson(Number(t)),
  [OID.float8]: (t) => floatToJson(Number(t)),
  [OID.numeric]: decimalToJson,
  // date and timestamp stay exactly as PostgreSQL prints them: no time zone is involved, so none may shift them.
  [OID.date]: identity,
  [OID.timestamp]: identity,
  [OID.timestamptz]: timestamptzToIso,
  [OID.json]: parseJsonText,
  [OID.jsonb]: parseJsonText,
  [OID.bytea]: (t) => bytesToJson(parseBytea(t)),
};

// Array type OID → element type OID, for the element types above plus text-like ones.
const arrayElements: Record<number, number> = {
  1000: OID.bool,
  1001: OID.bytea,
  1005: OID.int2,
  1007: OID.int4,
  1016: OID.int8,
  1028: OID.oid,
  1021: OID.float4,
  1022: OID.float8,
  1231: OID.numeric,
  1182: OID.date,
  1115: OID.timestamp,
  1185: OID.timestamptz,
  199: OID.json,
  3807: OID.jsonb,
  1009: 25, // text[]
  1015: 1043, // varchar[]
  1014: 1042, // bpchar[]
  1002: 18, // char[]
  1003: 19, // name[]
  2951: 2950, // uuid[]
  1183: 1083, // time[]
  1187: 1186, // interval[]
};

/** Splits PostgreSQL's array text (`{1,NULL,"a b"}`, nested) into strings and nulls; pg's own text[] parser does this. */
const splitArray = pg.types.getTypeParser(1009 as Parameters<typeof pg.types.getTypeParser>[0], 'text') as (text: string) => unknown;

function mapNested(value: unknown, parse: Parser): unknown {
  if (Array.isArray(value)) return value.map((v) => mapNested(v, parse));
  return value === null ? null : parse(value as string);
}

function parseBytea(text: string): Buffer {
  if (text.startsWith('\\x')) return Buffer.from(text.slice(2), 'hex');
  // Legacy "escape" output (bytea_output = escape): octal escapes and doubled backslashes.
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      if (text[i + 1] === '\\') {
        bytes.push(92);
        i++;
      } else {
        bytes.push(parseInt(text.slice(i + 1, i + 4), 8));
        i += 3;
      }
    } else bytes.push(text.charCodeAt(i));
  }
  return Buffer.from(bytes);
}

/**
 * Per-pool type parsers (pg's `types` option), so pg's global parsers stay untouched for the rest of the process.
 * Everything arrives as text; every parser returns a JSON-safe value (json-safe.ts). Unknown types (enums, intervals,
 * time, uuid, inet, geometry, …) stay as PostgreSQL's text.
 */
export const jsonSafePgTypes = {
  getTypeParser(oid: number, format?: string): Parser {
    if (format === 'binary') return identity;
    const scalar = scalarParsers[oid];
    if (scalar) return scalar;
    const element = arrayElements[oid];
    if (element !== undefined) {
      const parseElement = scalarParsers[element] ?? identity;
      return (text) => mapNested(splitArray(text), parseElement);
    }
    return identity;
  },
};

/** Every value as PostgreSQL's text, unparsed: user results are cut to their cell budget before they are parsed. */
export const rawTextPgTypes = {
  getTypeParser: (): Parser => identity,
};

/**
 * One cell of a user result: within the budget, parsed like `jsonSafePgTypes`; over it, never parsed (a 100 MB
 * jsonb would become a far larger object graph): bytea becomes its length, anything else its cut text.
 */
export function parsePgCell(oid: number, text: string, maxBytes: number): unknown {
  if (text.length > maxBytes || (text.length * 3 > maxBytes && utf8Bytes(text) > maxBytes)) {
    if (oid === OID.bytea && text.startsWith('\\x')) return { $bytes: (text.length - 2) / 2 };
    return cutText(text, maxBytes);
  }
  return jsonSafePgTypes.getTypeParser(oid)(text);
}
