import { describe, expect, it } from 'vitest';
import { lex, type LexRules } from './lexer.js';

const MYSQL: LexRules = { family: 'mysql' };
const SQLITE: LexRules = { family: 'sqlite' };

/** kind:text pairs, the shape a reader can check at a glance. */
function shape(sql: string, rules: LexRules): string[] {
  return lex(sql, rules).map((t) => `${t.kind}:${sql.slice(t.start, t.end)}`);
}

describe('lex', () => {
  it('reads MySQL `--` as a comment only before whitespace', () => {
    expect(shape('1 --1', MYSQL)).toEqual(['number:1', 'punct:-', 'punct:-', 'number:1']);
    expect(shape('1 -- x\n2', MYSQL)).toEqual(['number:1', 'comment:-- x', 'number:2']);
    expect(shape('1 --', MYSQL)).toEqual(['number:1', 'comment:--']);
    expect(shape('1 --1', SQLITE)).toEqual(['number:1', 'comment:--1']);
  });

  it('reads `#` as a comment in MySQL only', () => {
    expect(shape("1 # it's\n2", MYSQL)).toEqual(['number:1', "comment:# it's", 'number:2']);
    expect(shape('1 # 2', SQLITE)).toEqual(['number:1', 'punct:#', 'number:2']);
  });

  it('honours backslash escapes in MySQL strings unless told otherwise', () => {
    expect(shape("'a\\'b' c", MYSQL)).toEqual(["string:'a\\'b'", 'word:c']);
    expect(shape("'a\\'b' c", { family: 'mysql', backslashEscapes: false })).toEqual(["string:'a\\'", 'word:b', "string:' c"]);
    expect(shape("'a\\'b' c", SQLITE)).toEqual(["string:'a\\'", 'word:b', "string:' c"]);
  });

  it('unescapes doubled quotes and lower-cases names', () => {
    const [backtick, dquote, bracket] = lex('`My``Col` "Sq""L" [Br]', SQLITE);
    expect([backtick?.value, dquote?.value, bracket?.value]).toEqual(['my`col', 'sq"l', 'br']);
    expect(lex('"Str"', MYSQL)[0]).toMatchObject({ kind: 'string', quote: '"', value: 'str' });
  });

  it('marks what is left open', () => {
    expect(lex("SELECT 'abc", MYSQL).at(-1)).toMatchObject({ kind: 'string', unterminated: true });
    expect(lex('SELECT 1 /* open', MYSQL).at(-1)).toMatchObject({ kind: 'comment', unterminated: true });
    // SQLite ends an open block comment at the end of the text, without error.
    expect(lex('SELECT 1 /* open', SQLITE).at(-1)).toMatchObject({ kind: 'comment' });
    expect(lex('SELECT 1 /* open', SQLITE).at(-1)?.unterminated).toBeUndefined();
  });

  it('keeps offsets in UTF-16 units for non-ASCII text', () => {
    const sql = "SELECT 'é' AS naïve";
    expect(lex(sql, SQLITE).map((t) => sql.slice(t.start, t.end))).toEqual(['SELECT', "'é'", 'AS', 'naïve']);
  });
});
