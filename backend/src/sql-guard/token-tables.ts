import type { Token } from './lexer.js';
import type { TableRef } from './table-policy.js';

/** A relation read in a MySQL or SQLite statement; `cte` when a CTE of that name is visible there. */
export interface TokenRelation extends TableRef {
  cte: boolean;
  /** Offset in the SQL text, for messages. */
  at: number;
}

export type TokenTables = { relations: TokenRelation[] } | { unreadable: string };

/** Words reserved by both MySQL/MariaDB and SQLite: unquoted and not after a `.`, they never name a table or column. */
export const RESERVED_EVERYWHERE = new Set([
  'select', 'from', 'where', 'group', 'order', 'having', 'limit', 'union', 'except', 'intersect', 'join', 'on',
  'and', 'or', 'not', 'in', 'is', 'null', 'case', 'when', 'then', 'else', 'distinct', 'all', 'into', 'values',
  'as', 'between', 'exists', 'table',
]);

/** Keywords that end a FROM list in their query block. */
const FROM_ENDS = new Set(['where', 'group', 'having', 'order', 'limit', 'window', 'union', 'except', 'intersect', 'into', 'for', 'lock', 'returning']);
const QUERY_STARTS = new Set(['select', 'with', 'values', 'table']);

function isPunct(token: Token | undefined, ch: string): boolean {
  return token?.kind === 'punct' && token.value === ch;
}

/** A keyword is a word not after a `.` (after one MySQL reads any word as a name). */
function isKeyword(stmt: readonly Token[], i: number, word: string): boolean {
  const token = stmt[i];
  return token?.kind === 'word' && token.value === word && !isPunct(stmt[i - 1], '.');
}

/**
 * A name token as the server reads it, case kept: a word, or a quoted identifier (`…`, "…" in SQLite, […]) unescaped.
 * MySQL "…" is a string unless sql_mode has ANSI_QUOTES: the guard cannot know, so such a token is no name here.
 */
export function rawName(sql: string, token: Token | undefined): string | undefined {
  if (!token) return undefined;
  if (token.kind === 'word') return sql.slice(token.start, token.end);
  if (token.kind !== 'quoted' || token.unterminated) return undefined;
  const inner = sql.slice(token.start + 1, token.end - 1);
  if (token.quote === '[') return inner;
  return inner.split(token.quote! + token.quote!).join(token.quote!);
}

interface Cte {
  name: string;
  /** Token range where the name means the CTE: [from, to). */
  visible: [number, number][];
}

function closing(stmt: readonly Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < stmt.length; i++) {
    if (isPunct(stmt[i], '(')) depth++;
    else if (isPunct(stmt[i], ')') && --depth === 0) return i;
  }
  return stmt.length;
}

/** End of the parenthesised group that holds token `i` (the statement's end at depth 0). */
function groupEnd(stmt: readonly Token[], i: number): number {
  let depth = 0;
  for (let j = i; j < stmt.length; j++) {
    if (isPunct(stmt[j], '(')) depth++;
    else if (isPunct(stmt[j], ')') && --depth < 0) return j;
  }
  return stmt.length;
}

/**
 * The CTEs of every `WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (…), …` with where each name is
 * visible: after its own definition up to the end of the group that holds the WITH, and inside its own body
 * under RECURSIVE. That is the narrowest reading of MySQL, MariaDB and SQLite, so a name taken for a CTE is
 * one on every server. Anything else after WITH (MySQL's GROUP BY … WITH ROLLUP) defines nothing.
 */
function ctes(sql: string, stmt: readonly Token[]): Cte[] {
  const found: Cte[] = [];
  for (let w = 0; w < stmt.length; w++) {
    if (!isKeyword(stmt, w, 'with')) continue;
    const end = groupEnd(stmt, w + 1);
    let i = w + 1;
    const recursive = isKeyword(stmt, i, 'recursive');
    if (recursive) i++;
    for (;;) {
      const name = rawName(sql, stmt[i]);
      if (name === undefined) break;
      i++;
      if (isPunct(stmt[i], '(')) i = closing(stmt, i) + 1;
      if (!isKeyword(stmt, i, 'as')) break;
      i++;
      if (isKeyword(stmt, i, 'not')) i++;
      if (isKeyword(stmt, i, 'materialized')) i++;
      if (!isPunct(stmt[i], '(')) break;
      const bodyEnd = closing(stmt, i);
      found.push({ name, visible: [[bodyEnd + 1, end], ...(recursive ? [[i, bodyEnd] as [number, number]] : [])] });
      i = bodyEnd + 1;
      if (!isPunct(stmt[i], ',')) break;
      i++;
    }
  }
  return found;
}

interface Group {
  /** A SELECT keyword was seen in this group: a FROM here is the clause, not EXTRACT(… FROM …). */
  select: boolean;
  inFrom: boolean;
  /** The next name is a table (after FROM, JOIN, a comma of the FROM list, TABLE). */
  expect: boolean;
}

/**
 * The relations a MySQL or SQLite statement reads, read from the dialect's own tokens. node-sql-parser cannot
 * be trusted for this: it drops tables inside parenthesised joins and reads "a""b" as table a with alias b.
 * The reader fails closed: anything in a table position it does not understand makes the statement unreadable.
 */
export function tokenTables(sql: string, stmt: readonly Token[], dialect: 'mysql' | 'sqlite'): TokenTables {
  const defined = ctes(sql, stmt);
  const relations: TokenRelation[] = [];
  const groups: Group[] = [{ select: false, inFrom: false, expect: false }];
  const where = (token: Token) => `at character ${token.start + 1}`;

  for (let i = 0; i < stmt.length; i++) {
    const token = stmt[i]!;
    const group = groups.at(-1)!;

    if (isPunct(token, '(')) {
      const next = stmt[i + 1];
      const query = next?.kind === 'word' && QUERY_STARTS.has(next.value);
      const tablePosition = group.expect;
      group.expect = false;
      groups.push({ select: false, inFrom: tablePosition && !query, expect: tablePosition && !query });
      continue;
    }
    if (isPunct(token, ')')) {
      if (groups.length === 1) return { unreadable: `unbalanced parenthesis ${where(token)}` };
      groups.pop();
      continue;
    }

    if (group.expect) {
      if (isKeyword(stmt, i, 'lateral')) continue;
      const first = rawName(sql, token);
      if (first === undefined || (token.kind === 'word' && RESERVED_EVERYWHERE.has(token.value))) {
        return { unreadable: `no table name where one is expected ${where(token)}` };
      }
      const parts = [first];
      while (isPunct(stmt[i + 1], '.')) {
        const part = rawName(sql, stmt[i + 2]);
        if (part === undefined) return { unreadable: `no table name after "." ${where(stmt[i + 1]!)}` };
        parts.push(part);
        i += 2;
      }
      group.expect = false;
      // A table-valued function (json_each(…)): the function allowlist decides it, it reads no named table.
      if (isPunct(stmt[i + 1], '(')) continue;
      if (dialect === 'mysql' && parts.length === 1 && token.kind === 'word' && token.value === 'dual') continue;
      const name = parts.at(-1)!;
      const schema = parts.length > 1 ? parts.at(-2) : undefined;
      const cte = schema === undefined && defined.some((c) => c.name === name && c.visible.some(([from, to]) => i >= from && i < to));
      relations.push({ ...(schema !== undefined ? { schema } : {}), name, cte, at: token.start });
      continue;
    }

    if (token.kind !== 'word' || isPunct(stmt[i - 1], '.')) {
      if (isPunct(token, ',') && group.inFrom) group.expect = true;
      continue;
    }
    const word = token.value;
    if (word === 'select') {
      group.select = true;
      group.inFrom = false;
    } else if (word === 'from' && group.select && !isKeyword(stmt, i - 1, 'distinct')) {
      group.inFrom = true;
      group.expect = true;
    } else if (word === 'join' || word === 'straight_join') {
      group.inFrom = true;
      group.expect = true;
    } else if (word === 'table') {
      // MySQL 8: TABLE t, also as a UNION operand or a subquery.
      group.expect = true;
    } else if (FROM_ENDS.has(word)) {
      group.inFrom = false;
    }
  }
  return { relations };
}
