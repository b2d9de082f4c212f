import { describe, expect, it } from 'vitest';
import { displayIdent, quoteIdent, quoteQualified } from './quote-ident.js';

describe('quoteIdent', () => {
  it.each([
    ['postgres', 'publikation_schlüsselwort', '"publikation_schlüsselwort"'],
    ['postgres', 'Order "Items"', '"Order ""Items"""'],
    ['sqlite', 'a"b', '"a""b"'],
    ['mysql', 'Größe', '`Größe`'],
    ['mysql', 'a`b', '`a``b`'],
  ] as const)('%s %s → %s', (dialect, name, quoted) => {
    expect(quoteIdent(dialect, name)).toBe(quoted);
  });

  it('qualifies with a schema when there is one', () => {
    expect(quoteQualified('postgres', 'activity_1', 'aktivität')).toBe('"activity_1"."aktivität"');
    expect(quoteQualified('mysql', null, 'Track')).toBe('`Track`');
  });

  it('refuses a NUL character', () => {
    expect(() => quoteIdent('postgres', 'a\u0000b')).toThrow();
  });
});

describe('displayIdent', () => {
  it.each([
    ['postgres', 'album', 'album'],
    ['postgres', 'Album', '"Album"'],
    ['postgres', 'schlüsselwort', '"schlüsselwort"'],
    ['postgres', 'user', '"user"'],
    ['mysql', 'InvoiceLine', 'InvoiceLine'],
    ['mysql', 'order', '`order`'],
    ['mysql', 'Order Items', '`Order Items`'],
    ['sqlite', 'Track', 'Track'],
  ] as const)('%s %s → %s', (dialect, name, shown) => {
    expect(displayIdent(dialect, name)).toBe(shown);
  });
});
