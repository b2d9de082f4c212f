import type { Dialect } from '@aigis/contracts';
import { deniedFunction, deniedRelation } from './denylist.js';
import type { Token } from './lexer.js';
import { MYSQL_FUNCTION_PREFIXES, MYSQL_FUNCTIONS, MYSQL_NOT_CALLS } from './mysql-functions.js';
import { reasons } from './reasons.js';
import { SQLITE_FUNCTIONS, SQLITE_NOT_CALLS, SQLITE_PRAGMA_PREFIX } from './sqlite-functions.js';

/**
 * Rules decided on the dialect's own tokens rather than on node-sql-parser's AST, so they hold even where
 * the parser reads the text differently from the server. They are conservative: a keyword such as DELETE
 * or FOR UPDATE anywhere in a query refuses it, which costs nothing on real queries because those words
 * are reserved (quoted or after a `.` they are names, and the rules skip them).
 */

/** Words that start a statement whose label is two words: CREATE TABLE, LOAD DATA, START TRANSACTION. */
const TWO_WORD_HEADS = new Set(['create', 'alter', 'drop', 'load', 'start', 'lock', 'unlock', 'rename']);
const HEAD_MODIFIERS = new Set(['or', 'replace', 'temporary', 'temp', 'unique', 'if', 'global', 'local', 'low_priority']);
/**
 * First words of the MySQL, MariaDB and SQLite statements that are not queries. A statement starting with
 * any other word is most likely a typo, and the parser's own message says best what is wrong with it.
 */
const STATEMENT_HEADS = new Set([
  'alter', 'analyze', 'attach', 'backup', 'begin', 'binlog', 'cache', 'call', 'change', 'check', 'checksum',
  'close', 'commit', 'copy', 'create', 'deallocate', 'declare', 'delete', 'desc', 'describe', 'detach', 'do',
  'drop', 'end', 'execute', 'explain', 'fetch', 'flush', 'get', 'grant', 'handler', 'help', 'import', 'install',
  'kill', 'listen', 'load', 'lock', 'merge', 'notify', 'open', 'optimize', 'pragma', 'prepare', 'purge',
  'reindex', 'release', 'rename', 'repair', 'replace', 'reset', 'resignal', 'restart', 'revoke', 'rollback',
  'savepoint', 'set', 'show', 'shutdown', 'signal', 'start', 'stop', 'table', 'truncate', 'uninstall',
  'unlock', 'update', 'use', 'vacuum', 'xa',
]);
/** The statements that may follow a WITH clause. */
const MAIN_KEYWORDS = new Set(['select', 'values', 'insert', 'replace', 'update', 'delete', 'table']);

export function codeTokens(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => t.kind !== 'comment');
}

/** Code tokens of each non-empty statement (split at `;`, which the lexer never finds inside quotes). */
export function splitStatements(code: readonly Token[]): Token[][] {
  const statements: Token[][] = [];
  let current: Token[] = [];
  for (const token of code) {
    if (token.kind === 'punct' && token.value === ';') {
      if (current.length > 0) statements.push(current);
      current = [];
    } else {
      current.push(token);
    }
  }
  if (current.length > 0) statements.push(current);
  return statements;
}

/** A reserved word used as a keyword: after a `.` MySQL reads any word as an identifier (t.update). */
function isKeyword(stmt: readonly Token[], i: number, word: string): boolean {
  const token = stmt[i];
  if (token?.kind !== 'word' || token.value !== word) return false;
  const before = stmt[i - 1];
  return !(before?.kind === 'punct' && before.value === '.');
}

function isPunct(token: Token | undefined, ch: string): boolean {
  return token?.kind === 'punct' && token.value === ch;
}

/** The keyword of the statement a WITH clause leads to: the first depth-0 SELECT/INSERT/… after it. */
function mainKeywordAfterWith(stmt: readonly Token[]): string | undefined {
  let depth = 0;
  for (let i = 1; i < stmt.length; i++) {
    const token = stmt[i]!;
    if (isPunct(token, '(')) depth++;
    else if (isPunct(token, ')')) depth--;
    else if (depth === 0 && token.kind === 'word' && MAIN_KEYWORDS.has(token.value)) return token.value;
  }
  return undefined;
}

export interface StatementHead {
  /** SELECT / VALUES / a parenthesised query / WITH … SELECT. */
  query: boolean;
  /** What to call the statement in a message: DELETE, CREATE TABLE, LOAD DATA, ATTACH, … */
  label: string;
  /** False when the first word starts no statement we know of (a typo such as SELEC). */
  known: boolean;
}

export function statementHead(stmt: readonly Token[]): StatementHead {
  const first = stmt[0];
  if (!first) return { query: false, label: 'an empty statement', known: false };
  if (isPunct(first, '(')) return { query: true, label: 'SELECT', known: true };
  if (first.kind !== 'word') return { query: false, label: `a statement starting with ${first.value}`, known: false };
  if (first.value === 'with') {
    const main = mainKeywordAfterWith(stmt) ?? 'with';
    return { query: main === 'select' || main === 'values', label: main.toUpperCase(), known: true };
  }
  if (first.value === 'select' || first.value === 'values') return { query: true, label: first.value.toUpperCase(), known: true };
  const known = STATEMENT_HEADS.has(first.value);
  let label = first.value.toUpperCase();
  if (first.value === 'explain' && isKeyword(stmt, 1, 'analyze')) return { query: false, label: 'EXPLAIN ANALYZE', known };
  if (TWO_WORD_HEADS.has(first.value)) {
    const second = stmt.slice(1).find((t) => !(t.kind === 'word' && HEAD_MODIFIERS.has(t.value)));
    if (second?.kind === 'word') label += ` ${second.value.toUpperCase()}`;
  }
  return { query: false, label, known };
}

/** The label of the first statement that is not a query, for "statement 2 of 2 is DELETE". */
export function firstNonQuery(statements: readonly (readonly Token[])[]): { index: number; label: string } | undefined {
  for (let i = 0; i < statements.length; i++) {
    const head = statementHead(statements[i]!);
    if (!head.query) return { index: i + 1, label: head.label };
  }
  return undefined;
}

/** Whether the outermost query ends in LIMIT: a LIMIT outside every parenthesis can only belong to it. */
export function hasTopLevelLimitToken(stmt: readonly Token[]): boolean {
  let depth = 0;
  for (let i = 0; i < stmt.length; i++) {
    const token = stmt[i]!;
    if (isPunct(token, '(')) depth++;
    else if (isPunct(token, ')')) depth--;
    else if (depth === 0 && isKeyword(stmt, i, 'limit')) return true;
  }
  return false;
}

/** FOR UPDATE / FOR SHARE / LOCK IN SHARE MODE anywhere, subqueries included. */
function lockingClause(stmt: readonly Token[]): string | undefined {
  for (let i = 0; i < stmt.length; i++) {
    if (isKeyword(stmt, i, 'for')) {
      const words = stmt.slice(i + 1, i + 4).map((t) => (t.kind === 'word' ? t.value : ''));
      if (words[0] === 'update' || words[0] === 'share') return `FOR ${words[0].toUpperCase()}`;
      if (words[0] === 'no' && words[1] === 'key' && words[2] === 'update') return 'FOR NO KEY UPDATE';
      if (words[0] === 'key' && words[1] === 'share') return 'FOR KEY SHARE';
    }
    if (isKeyword(stmt, i, 'lock') && isKeyword(stmt, i + 1, 'in') && isKeyword(stmt, i + 2, 'share')) return 'LOCK IN SHARE MODE';
  }
  return undefined;
}

/** INSERT/UPDATE/DELETE/REPLACE used as statements inside a query (a CTE or subquery). */
function dataModifyingWord(stmt: readonly Token[], dialect: Dialect): string | undefined {
  for (let i = 0; i < stmt.length; i++) {
    const callsFunction = isPunct(stmt[i + 1], '('); // MySQL has INSERT(str, pos, len, new) and REPLACE(…)
    // FOR [NO KEY] UPDATE is a locking clause, refused under its own name.
    const lockingUpdate = isKeyword(stmt, i - 1, 'for') || isKeyword(stmt, i - 1, 'key');
    for (const word of ['insert', 'update', 'delete'] as const) {
      if (isKeyword(stmt, i, word) && !callsFunction && !(word === 'update' && lockingUpdate)) return word.toUpperCase();
    }
    // SQLite lets `replace` name a column; only REPLACE INTO is the statement there.
    if (isKeyword(stmt, i, 'replace') && !callsFunction && (dialect === 'mysql' || isKeyword(stmt, i + 1, 'into'))) {
      return 'REPLACE';
    }
  }
  return undefined;
}

/** SELECT … INTO @var / OUTFILE / DUMPFILE (MySQL); in SQLite only INSERT INTO, caught before this. */
function selectInto(stmt: readonly Token[]): string | undefined {
  for (let i = 0; i < stmt.length; i++) {
    if (!isKeyword(stmt, i, 'into')) continue;
    const next = stmt[i + 1];
    if (next?.kind === 'word' && (next.value === 'outfile' || next.value === 'dumpfile')) return `INTO ${next.value.toUpperCase()}`;
    if (isPunct(next, '@')) return 'INTO a variable';
    return 'INTO';
  }
  return undefined;
}

/** A name, possibly quoted, as the token before a `(` or around a `.`. */
function nameOf(token: Token | undefined, dialect: Dialect): string | undefined {
  if (!token) return undefined;
  if (token.kind === 'word' || token.kind === 'quoted') return token.value;
  // Under sql_mode ANSI_QUOTES "…" is an identifier in MySQL.
  if (dialect === 'mysql' && token.kind === 'string' && token.quote === '"') return token.value;
  return undefined;
}

/** Every call is a name followed by `(`; checking tokens also covers forms the AST represents differently. */
function deniedCall(stmt: readonly Token[], dialect: Dialect): string | undefined {
  for (let i = 0; i + 1 < stmt.length; i++) {
    if (!isPunct(stmt[i + 1], '(')) continue;
    const name = nameOf(stmt[i], dialect);
    const why = name === undefined ? undefined : deniedFunction(dialect, name);
    if (why && name) return reasons.deniedFunction(name, why);
  }
  return undefined;
}

/** Index of the `)` closing the `(` at `open`, or -1. */
function closingParen(stmt: readonly Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < stmt.length; i++) {
    if (isPunct(stmt[i], '(')) depth++;
    else if (isPunct(stmt[i], ')') && --depth === 0) return i;
  }
  return -1;
}

/** `WITH name (a, b) AS (…)` / `AS [NOT] MATERIALIZED (…)`: a CTE's column list, not a call. */
function isCteColumnList(stmt: readonly Token[], nameIndex: number): boolean {
  const close = closingParen(stmt, nameIndex + 1);
  if (close === -1 || !isKeyword(stmt, close + 1, 'as')) return false;
  return isPunct(stmt[close + 2], '(') || isKeyword(stmt, close + 2, 'materialized') || isKeyword(stmt, close + 2, 'not');
}

function isAllowedBuiltIn(name: string, dialect: Dialect): boolean {
  if (dialect === 'sqlite') return SQLITE_FUNCTIONS.has(name);
  return MYSQL_FUNCTIONS.has(name) || MYSQL_FUNCTION_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * The allowlist, on tokens: every name followed by `(` must be a keyword (IN (…), CAST(…), OVER (…)), a type
 * size (AS DECIMAL(10, 2)), a CTE column list, an allowed built-in, or a function the connection's owner
 * allowed by exactly that name (`fn` or `db.fn`). Deciding on tokens covers forms the parser reads
 * differently (`{fn name(…)}`, comments before the parenthesis) and the SQLite statements only SQLite parses.
 */
function notAllowedCall(stmt: readonly Token[], dialect: Dialect, ownerAllowed: ReadonlySet<string>): string | undefined {
  const notCalls = dialect === 'sqlite' ? SQLITE_NOT_CALLS : MYSQL_NOT_CALLS;
  for (let i = 0; i < stmt.length; i++) {
    const token = stmt[i]!;
    const name = nameOf(token, dialect);
    if (name === undefined) continue;
    // PRAGMA table-valued functions run with or without parentheses: FROM pragma_database_list.
    if (dialect === 'sqlite' && name.startsWith(SQLITE_PRAGMA_PREFIX) && !SQLITE_FUNCTIONS.has(name)) return reasons.notAllowedFunction(name);
    if (!isPunct(stmt[i + 1], '(')) continue;
    const qualifier = isPunct(stmt[i - 1], '.') ? (nameOf(stmt[i - 2], dialect) ?? '?') : undefined;
    if (qualifier === undefined) {
      if (token.kind === 'word' && notCalls.has(name)) continue;
      if (isKeyword(stmt, i - 1, 'as') || isCteColumnList(stmt, i)) continue;
      if (isAllowedBuiltIn(name, dialect)) continue;
    }
    const full = qualifier === undefined ? name : `${qualifier}.${name}`;
    if (!ownerAllowed.has(full)) return reasons.notAllowedFunction(full);
  }
  return undefined;
}

/** `mysql`.`user` and friends, wherever a qualified name appears. */
function deniedQualifiedName(stmt: readonly Token[], dialect: Dialect): string | undefined {
  for (let i = 0; i + 2 < stmt.length; i++) {
    if (!isPunct(stmt[i + 1], '.')) continue;
    const schema = nameOf(stmt[i], dialect);
    const name = nameOf(stmt[i + 2], dialect);
    if (schema === undefined || name === undefined) continue;
    const denied = deniedRelation(dialect, schema, name);
    if (denied) return reasons.deniedRelation(denied.shown, denied.why);
  }
  return undefined;
}

/** MariaDB's NEXT VALUE FOR seq advances a sequence, like NEXTVAL(seq). */
function sequenceAdvance(stmt: readonly Token[]): boolean {
  return stmt.some((_, i) => isKeyword(stmt, i, 'next') && isKeyword(stmt, i + 1, 'value') && isKeyword(stmt, i + 2, 'for'));
}

function variableAssignment(stmt: readonly Token[]): boolean {
  return stmt.some((t, i) => isPunct(t, ':') && isPunct(stmt[i + 1], '='));
}

/**
 * The token rules for one statement of a MySQL or SQLite query, in the order their reasons are most
 * useful; undefined when none applies.
 */
export function tokenRuleViolation(stmt: readonly Token[], dialect: Dialect, ownerAllowed: ReadonlySet<string> = new Set()): string | undefined {
  const head = statementHead(stmt);
  if (!head.query) return head.label === 'EXPLAIN ANALYZE' ? reasons.explainAnalyze() : reasons.notAQuery(head.label);

  const locking = lockingClause(stmt);
  if (locking) return reasons.lockingClause(locking);

  const modifying = dataModifyingWord(stmt, dialect);
  if (modifying) {
    const hasWith = stmt.some((_, i) => isKeyword(stmt, i, 'with'));
    return hasWith ? reasons.dataModifyingCte(modifying) : reasons.notAQuery(modifying);
  }

  const into = selectInto(stmt);
  if (into) return reasons.selectInto(into);
  if (dialect === 'mysql' && variableAssignment(stmt)) return reasons.variableAssignment();
  if (dialect === 'mysql' && sequenceAdvance(stmt)) return reasons.deniedFunction('NEXT VALUE FOR', 'changes a sequence');

  return deniedCall(stmt, dialect) ?? deniedQualifiedName(stmt, dialect) ?? notAllowedCall(stmt, dialect, ownerAllowed);
}

/** A string, quoted identifier or comment left open, as a parse error. */
export function unterminatedToken(tokens: readonly Token[]): string | undefined {
  const open = tokens.find((t) => t.unterminated);
  if (!open) return undefined;
  const what =
    open.kind === 'comment' ? 'comment' : open.kind === 'string' ? 'string literal' : 'quoted identifier';
  return reasons.parseError(`unterminated ${what} starting at character ${open.start + 1}`);
}

/**
 * The one statement as it should run: from after any leading `;` to its last code token, so trailing
 * semicolons, whitespace and comments are gone (a trailing `-- …` would swallow an appended LIMIT).
 */
export function statementText(sql: string, tokens: readonly Token[]): string {
  const code = codeTokens(tokens);
  const firstIndex = code.findIndex((t) => !isPunct(t, ';'));
  let lastIndex = code.length - 1;
  while (lastIndex >= 0 && isPunct(code[lastIndex], ';')) lastIndex--;
  if (firstIndex === -1 || lastIndex < firstIndex) return '';
  const start = firstIndex > 0 ? code[firstIndex - 1]!.end : 0;
  return sql.slice(start, code[lastIndex]!.end).trim();
}

/** What the token phase leaves for the parser: one terminated statement whose token rules passed. */
export type TokenPhase = { reason: string } | { statement: Token[]; text: string; head: StatementHead };

/**
 * The token phase of the node-sql-parser guards (MySQL, SQLite): terminated tokens, exactly one
 * statement, and the dialect's token rules when the statement's first word is one we know.
 */
export function tokenPhase(sql: string, tokens: readonly Token[], dialect: Dialect, ownerAllowed: ReadonlySet<string> = new Set()): TokenPhase {
  const unterminated = unterminatedToken(tokens);
  if (unterminated) return { reason: unterminated };
  const statements = splitStatements(codeTokens(tokens));
  if (statements.length === 0) return { reason: reasons.empty() };
  if (statements.length > 1) return { reason: reasons.multipleStatements(statements.length, firstNonQuery(statements)) };
  const [statement] = statements as [Token[]];
  // A first word that starts no statement we know is most likely a typo: the parser's message says why.
  const head = statementHead(statement);
  const violation = head.known ? tokenRuleViolation(statement, dialect, ownerAllowed) : undefined;
  if (violation) return { reason: violation };
  return { statement, text: statementText(sql, tokens), head };
}
