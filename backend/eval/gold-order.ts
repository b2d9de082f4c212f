import { lex, type Token } from '../src/sql-guard/lexer.js';

/**
 * Whether a query orders its result: an ORDER BY outside every parenthesis (so not one in a subquery, a window or
 * an aggregate). Only then does the row order of the answer count. `family`: the dialect's lexing rules
 * (`mysql` for MySQL/MariaDB, `sqlite` for SQLite and PostgreSQL: standard strings and double-quoted identifiers).
 */
export function ordersAtTopLevel(sql: string, family: 'mysql' | 'sqlite' = 'sqlite'): boolean {
  const tokens = lex(sql, { family }).filter((t) => t.kind !== 'comment');
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (isPunct(token, '(')) depth++;
    else if (isPunct(token, ')')) depth--;
    else if (depth === 0 && isWord(token, 'order') && tokens[i + 1] && isWord(tokens[i + 1]!, 'by')) return true;
  }
  return false;
}

const isPunct = (t: Token, ch: string) => t.kind === 'punct' && t.value === ch;
const isWord = (t: Token, w: string) => t.kind === 'word' && t.value === w;
