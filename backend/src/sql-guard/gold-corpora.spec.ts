import { describe, expect, it } from 'vitest';
import { expandBraces, parseCsv, splitAlternatives } from './gold-corpora.js';

describe('gold corpus helpers', () => {
  it('parses quoted CSV fields with commas, newlines and doubled quotes', () => {
    expect(parseCsv('a,b\n"x, ""y""","1\n2"\n')).toEqual([{ a: 'x, "y"', b: '1\n2' }]);
  });

  it('splits defog alternatives at semicolons outside quotes', () => {
    expect(splitAlternatives("SELECT ';' AS s;SELECT 2;")).toEqual(["SELECT ';' AS s", 'SELECT 2']);
  });

  it('expands {a, b} groups into every non-empty choice, as defog scores them', () => {
    expect(expandBraces('SELECT {t.a, t.b} FROM t')).toEqual(['SELECT t.a FROM t', 'SELECT t.b FROM t', 'SELECT t.a, t.b FROM t']);
    expect(expandBraces("SELECT '{x, y}' FROM t")).toEqual(["SELECT '{x, y}' FROM t"]);
    expect(expandBraces('SELECT {a, b}, {c, d} FROM t')).toHaveLength(9);
  });
});
