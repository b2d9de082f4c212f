import { lex, type Token } from '../src/sql-guard/lexer.js';

/**
 * Deliberately wrong versions of a gold query, for the harness's own tests: the scorer must call them wrong.
 * Both keep the query runnable where they can, so what is measured is the comparison, not a database error.
 */
export type Corruption = 'wrong-column' | 'wrong-filter';

const CLAUSE_END = new Set(['group', 'order', 'limit', 'having', 'union', 'intersect', 'except', 'window', 'offset', 'fetch']);

function codeTokens(sql: string): Token[] {
  return lex(sql, { family: 'sqlite' }).filter((t) => t.kind !== 'comment');
}

const isPunct = (t: Token | undefined, ch: string) => t?.kind === 'punct' && t.value === ch;
const isWord = (t: Token | undefined, w: string) => t?.kind === 'word' && t.value === w;

/** The first WHERE condition negated (`WHERE NOT (…)`); without a WHERE, the result without its first row. */
export function wrongFilter(sql: string): string {
  const tokens = codeTokens(sql);
  const where = tokens.findIndex((t) => isWord(t, 'where'));
  if (where === -1) return `SELECT * FROM (${sql}) AS corrupted OFFSET 1`;
  let depth = 0;
  let end = sql.length;
  for (let i = where + 1; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) {
      if (depth === 0) {
        end = t.start;
        break;
      }
      depth--;
    } else if (depth === 0 && (isPunct(t, ';') || (t.kind === 'word' && CLAUSE_END.has(t.value)))) {
      end = t.start;
      break;
    }
  }
  const start = tokens[where]!.end;
  return `${sql.slice(0, start)} NOT (${sql.slice(start, end).trim()}) ${sql.slice(end)}`.trim();
}

/**
 * The first column of the result computed from another expression: the second select item's (keeping the first
 * one's alias), or the row count when there is one item.
 */
export function wrongColumn(sql: string): string {
  const tokens = codeTokens(sql);
  let depth = 0;
  const items: { start: number; end: number }[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && isWord(t, 'select')) {
      let j = i + 1;
      if (isWord(tokens[j], 'distinct') || isWord(tokens[j], 'all')) j++;
      let itemStart = tokens[j]?.start ?? sql.length;
      let d = 0;
      for (; j < tokens.length; j++) {
        const u = tokens[j]!;
        if (isPunct(u, '(')) d++;
        else if (isPunct(u, ')')) d--;
        else if (d === 0 && isPunct(u, ',')) {
          items.push({ start: itemStart, end: u.start });
          itemStart = tokens[j + 1]?.start ?? sql.length;
        } else if (d === 0 && (isWord(u, 'from') || isPunct(u, ';'))) break;
      }
      items.push({ start: itemStart, end: tokens[j]?.start ?? sql.length });
      break;
    }
  }
  if (items.length === 0) return wrongFilter(sql);
  const first = items[0]!;
  const firstText = sql.slice(first.start, first.end).trim();
  const alias = /\s+as\s+("[^"]+"|[A-Za-z_][A-Za-z0-9_]*)$/i.exec(firstText)?.[1];
  const replacement = items.length > 1 ? sql.slice(items[1]!.start, items[1]!.end).trim().replace(/\s+as\s+("[^"]+"|[A-Za-z_][A-Za-z0-9_]*)$/i, '') : 'COUNT(*) OVER ()';
  return `${sql.slice(0, first.start)}${replacement}${alias ? ` AS ${alias}` : ''} ${sql.slice(first.end)}`;
}

export function corrupt(sql: string, how: Corruption): string {
  return how === 'wrong-column' ? wrongColumn(sql) : wrongFilter(sql);
}
