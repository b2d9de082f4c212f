/**
 * A tokenizer that follows MySQL's and SQLite's own lexing rules for strings, quoted identifiers and
 * comments. The guard needs it because node-sql-parser drops comments and does not always lex like the
 * server (it reads `--1` as a comment in MySQL, where the server reads minus minus one), so statement
 * boundaries, executable comments and function names are decided on these tokens, not on the AST.
 */
export type TokenKind = 'word' | 'quoted' | 'string' | 'number' | 'punct' | 'comment';

export interface Token {
  kind: TokenKind;
  /** Offsets into the SQL text, in UTF-16 code units: `sql.slice(start, end)` is the token. */
  start: number;
  end: number;
  /**
   * word: the text lower-cased; quoted identifier and string: the content, unescaped and lower-cased;
   * punct: the character; comment: the whole comment text.
   */
  value: string;
  /** The opening quote of a string or quoted identifier: ' " ` or [. */
  quote?: string;
  /** A string, quoted identifier or block comment that reaches the end of the text unclosed. */
  unterminated?: boolean;
}

export interface LexRules {
  /**
   * mysql: `--` is a comment only before whitespace, `#` is a comment, "…" is a string, `/*` never nests.
   * sqlite: `--` is always a comment, "…" and […] are identifiers, an unclosed block comment ends the text.
   */
  family: 'mysql' | 'sqlite';
  /** MySQL: backslash escapes inside '…' and "…" (the default; off under sql_mode NO_BACKSLASH_ESCAPES). */
  backslashEscapes?: boolean;
}

const WORD_CHAR = /[\p{L}\p{N}_$\u0080-\uffff]/u;
const DIGIT = /[0-9]/;

function isWordChar(ch: string): boolean {
  return WORD_CHAR.test(ch);
}

/** Splits `sql` into tokens; whitespace is dropped, comments are kept (the guard inspects them). */
export function lex(sql: string, rules: LexRules): Token[] {
  const mysql = rules.family === 'mysql';
  const backslash = mysql && (rules.backslashEscapes ?? true);
  const tokens: Token[] = [];
  const n = sql.length;
  let i = 0;

  while (i < n) {
    const ch = sql[i]!;
    const next = sql[i + 1] ?? '';

    if (/\s/.test(ch)) {
      i++;
      continue;
    }

    // Line comments: '#' (MySQL), '--' (SQLite always; MySQL only before whitespace, a control char or the end).
    const dashComment = ch === '-' && next === '-' && (!mysql || i + 2 >= n || sql.charCodeAt(i + 2) <= 32);
    if ((mysql && ch === '#') || dashComment) {
      const eol = sql.indexOf('\n', i);
      const end = eol === -1 ? n : eol;
      tokens.push({ kind: 'comment', start: i, end, value: sql.slice(i, end) });
      i = end;
      continue;
    }

    if (ch === '/' && next === '*') {
      const close = sql.indexOf('*/', i + 2);
      const end = close === -1 ? n : close + 2;
      // SQLite ends an unclosed block comment at the end of the text; MySQL reports an error.
      const open = close === -1 && mysql;
      tokens.push({ kind: 'comment', start: i, end, value: sql.slice(i, end), ...(open ? { unterminated: true } : {}) });
      i = end;
      continue;
    }

    if (ch === "'" || ch === '"' || ch === '`' || (ch === '[' && !mysql)) {
      const closeChar = ch === '[' ? ']' : ch;
      // Backslash escapes apply to MySQL strings only, never to backtick or bracket identifiers.
      const escapes = backslash && (ch === "'" || ch === '"');
      let j = i + 1;
      let content = '';
      let closed = false;
      while (j < n) {
        const c = sql[j]!;
        if (escapes && c === '\\' && j + 1 < n) {
          content += sql.slice(j, j + 2);
          j += 2;
          continue;
        }
        if (c === closeChar) {
          if (closeChar !== ']' && sql[j + 1] === closeChar) {
            content += c;
            j += 2;
            continue;
          }
          closed = true;
          j++;
          break;
        }
        content += c;
        j++;
      }
      const isString = ch === "'" || (mysql && ch === '"');
      tokens.push({
        kind: isString ? 'string' : 'quoted',
        start: i,
        end: j,
        value: content.toLowerCase(),
        quote: ch,
        ...(closed ? {} : { unterminated: true }),
      });
      i = j;
      continue;
    }

    if (isWordChar(ch)) {
      let j = i + 1;
      while (j < n && isWordChar(sql[j]!)) j++;
      const text = sql.slice(i, j);
      const kind = DIGIT.test(ch) && /^[0-9]+$/.test(text) ? 'number' : 'word';
      tokens.push({ kind, start: i, end: j, value: text.toLowerCase() });
      i = j;
      continue;
    }

    tokens.push({ kind: 'punct', start: i, end: i + 1, value: ch });
    i++;
  }
  return tokens;
}
