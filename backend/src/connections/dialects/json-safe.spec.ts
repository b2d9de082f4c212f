import { describe, expect, it } from 'vitest';
import { bigintToJson, bytesToJson, decimalToJson, normalizeDecimal, timestamptzToIso, toJsonSafe, uniqueColumnNames } from './json-safe.js';

describe('json-safe', () => {
  it.each([
    ['42', 42],
    ['-9007199254740991', -9007199254740991],
    ['9007199254740992', '9007199254740992'],
    ['-9223372036854775808', '-9223372036854775808'],
  ])('bigint %s → %j', (text, expected) => {
    expect(bigintToJson(text)).toBe(expected);
    expect(bigintToJson(BigInt(text))).toBe(expected);
  });

  it.each([
    ['1.10', 1.1],
    ['0.000', 0],
    ['-0.50', -0.5],
    ['123456789012345.67', 123456789012345.67],
    ['1234567890123456.78', '1234567890123456.78'],
    ['0.1', 0.1],
    ['12345678901234567890', '12345678901234567890'],
    ['1e21', 1e21],
    ['0.0000001', 1e-7],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
  ])('decimal %s → %j', (text, expected) => {
    expect(decimalToJson(text)).toBe(expected);
  });

  it('normalizes decimals to a plain canonical form', () => {
    expect(normalizeDecimal('-0012.3400')).toBe('-12.34');
    expect(normalizeDecimal('1e-7')).toBe('0.0000001');
    expect(normalizeDecimal('1.5e3')).toBe('1500');
    expect(normalizeDecimal('-0.0')).toBe('0');
  });

  it('bytes carry their length, and their content while small', () => {
    expect(bytesToJson(Buffer.from([1, 2, 3]))).toEqual({ $bytes: 3, base64: 'AQID' });
    expect(bytesToJson(new Uint8Array(300))).toEqual({ $bytes: 300 });
  });

  it('timestamptz becomes ISO in UTC with its microseconds', () => {
    expect(timestamptzToIso('2024-02-29 13:45:00.123456+02')).toBe('2024-02-29T11:45:00.123456Z');
    expect(timestamptzToIso('2024-03-01 00:15:00+05:30')).toBe('2024-02-29T18:45:00Z');
    expect(timestamptzToIso('1901-12-13 20:45:52+00:19:32')).toBe('1901-12-13T20:26:20Z');
    expect(timestamptzToIso('infinity')).toBe('infinity');
    expect(timestamptzToIso('0044-03-15 12:00:00+00 BC')).toBe('0044-03-15 12:00:00+00 BC');
  });

  it('makes any driver value JSON-safe, recursively', () => {
    const value = { a: [1n, Number.NaN, Buffer.from('hi')], d: new Date('2024-01-02T03:04:05Z'), n: null, u: undefined };
    expect(toJsonSafe(value)).toEqual({ a: [1, 'NaN', { $bytes: 2, base64: 'aGk=' }], d: '2024-01-02T03:04:05.000Z', n: null, u: null });
  });

  it('gives duplicate column names distinct keys', () => {
    expect(uniqueColumnNames(['id', 'id', 'name', 'id', 'id_2'])).toEqual(['id', 'id_2', 'name', 'id_3', 'id_2_2']);
  });
});
