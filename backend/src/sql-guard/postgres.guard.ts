import { loadModule, parseSync, scanSync } from 'libpg-query';
import { walkAst } from './ast-walk.js';
import { deniedRelation } from './denylist.js';
import { accept, reject, type DialectGuard } from './dialect-guard.js';
import { normaliseAllowedFunctions } from './allowed-functions.js';
import { expressionFieldRefusal, fieldSelectionRefusal, functionCallRefusal, tablesampleRefusal } from './postgres-functions.js';
import type { Token } from './lexer.js';
import { reasons } from './reasons.js';
import type { GuardOptions, GuardVerdict } from './sql-guard.js';
import { statementText } from './token-rules.js';
import { compilePolicy, type CompiledPolicy } from './table-policy.js';
import { postgresPolicyViolation } from './table-policy-check.js';

type Json = Record<string, unknown>;

/** Statement node kinds whose label is not just the kind without "Stmt", split into words. */
const LABELS: Record<string, string> = {
  CreateStmt: 'CREATE TABLE',
  ViewStmt: 'CREATE VIEW',
  IndexStmt: 'CREATE INDEX',
  DeclareCursorStmt: 'DECLARE',
  ClosePortalStmt: 'CLOSE',
  CheckPointStmt: 'CHECKPOINT',
  RefreshMatViewStmt: 'REFRESH MATERIALIZED VIEW',
  VariableShowStmt: 'SHOW',
  RenameStmt: 'ALTER … RENAME',
};

const TRANSACTION_LABELS: Record<string, string> = {
  TRANS_STMT_BEGIN: 'BEGIN',
  TRANS_STMT_START: 'START TRANSACTION',
  TRANS_STMT_COMMIT: 'COMMIT',
  TRANS_STMT_ROLLBACK: 'ROLLBACK',
  TRANS_STMT_SAVEPOINT: 'SAVEPOINT',
  TRANS_STMT_RELEASE: 'RELEASE SAVEPOINT',
  TRANS_STMT_ROLLBACK_TO: 'ROLLBACK TO SAVEPOINT',
  TRANS_STMT_PREPARE: 'PREPARE TRANSACTION',
  TRANS_STMT_COMMIT_PREPARED: 'COMMIT PREPARED',
  TRANS_STMT_ROLLBACK_PREPARED: 'ROLLBACK PREPARED',
};

const LOCK_STRENGTHS: Record<string, string> = {
  LCS_FORUPDATE: 'FOR UPDATE',
  LCS_FORNOKEYUPDATE: 'FOR NO KEY UPDATE',
  LCS_FORSHARE: 'FOR SHARE',
  LCS_FORKEYSHARE: 'FOR KEY SHARE',
};

const DATA_MODIFYING = new Set(['InsertStmt', 'UpdateStmt', 'DeleteStmt', 'MergeStmt']);

function words(kind: string): string {
  return kind
    .replace(/Stmt$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toUpperCase();
}

/** What to call a statement node in a message: DELETE, SET LOCAL, CREATE TABLE AS, COMMIT, … */
function statementLabel(kind: string, body: Json): string {
  switch (kind) {
    case 'TransactionStmt':
      return TRANSACTION_LABELS[String(body.kind)] ?? 'a transaction statement';
    case 'VariableSetStmt':
      if (body.kind === 'VAR_RESET' || body.kind === 'VAR_RESET_ALL') return 'RESET';
      return body.is_local ? 'SET LOCAL' : 'SET';
    case 'CreateTableAsStmt':
      return body.objtype === 'OBJECT_MATVIEW' ? 'CREATE MATERIALIZED VIEW' : 'CREATE TABLE AS';
    case 'GrantStmt':
    case 'GrantRoleStmt':
      return body.is_grant ? 'GRANT' : 'REVOKE';
    case 'VacuumStmt':
      return body.is_vacuumcmd ? 'VACUUM' : 'ANALYZE';
    case 'FetchStmt':
      return body.ismove ? 'MOVE' : 'FETCH';
    case 'DropStmt':
      return typeof body.removeType === 'string' ? `DROP ${body.removeType.replace(/^OBJECT_/, '').replace(/_/g, ' ')}` : 'DROP';
    case 'ExplainStmt':
      return isExplainAnalyze(body) ? 'EXPLAIN ANALYZE' : 'EXPLAIN';
    case 'SelectStmt':
      return body.intoClause ? 'SELECT INTO' : 'SELECT';
    default:
      return LABELS[kind] ?? words(kind);
  }
}

function isExplainAnalyze(body: Json): boolean {
  const options = Array.isArray(body.options) ? (body.options as Json[]) : [];
  return options.some((option) => (option.DefElem as Json | undefined)?.defname === 'analyze');
}

/** A node is `{ Kind: body }`. */
function unwrap(node: unknown): [string, Json] {
  const [kind, body] = Object.entries(node as Json)[0] ?? ['', {}];
  return [kind, body as Json];
}

/** libpg-query reports byte offsets (UTF-8); JavaScript strings index UTF-16 code units. */
function byteToCharOffset(sql: string, bytes: Buffer | undefined, offset: number): number {
  return bytes ? bytes.subarray(0, offset).toString('utf8').length : offset;
}

/** The real lexer's tokens, reduced to what statementText needs: comments and semicolons. */
function scanTokens(sql: string): Token[] {
  const bytes = Buffer.byteLength(sql) === sql.length ? undefined : Buffer.from(sql, 'utf8');
  return (scanSync(sql).tokens ?? []).map((t) => ({
    kind: t.tokenName === 'SQL_COMMENT' || t.tokenName === 'C_COMMENT' ? 'comment' : t.text === ';' ? 'punct' : 'word',
    start: byteToCharOffset(sql, bytes, t.start),
    end: byteToCharOffset(sql, bytes, t.end),
    value: t.text,
  }));
}

function parseErrorMessage(sql: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cursor = (error as { sqlDetails?: { cursorPosition?: number } }).sqlDetails?.cursorPosition;
  if (typeof cursor !== 'number' || cursor < 0) return message;
  const bytes = Buffer.byteLength(sql) === sql.length ? undefined : Buffer.from(sql, 'utf8');
  return `${message} (at character ${byteToCharOffset(sql, bytes, cursor) + 1})`;
}

/** The last String of a name list (`[schema, name]`), and the one before it as the schema. */
function qualifiedName(list: unknown): { schema?: string; name: string } | undefined {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const parts = list.map((item) => ((item as Json).String as Json | undefined)?.sval);
  const name = parts.at(-1);
  if (typeof name !== 'string') return undefined;
  const schema = parts.length > 1 ? parts.at(-2) : undefined;
  // catalog.schema.name is refused by the server ("cross-database references"); keep the whole name visible.
  if (parts.length > 2) return { schema: parts.slice(0, -1).join('.'), name };
  return typeof schema === 'string' ? { schema, name } : { name };
}

/** The names of a ColumnRef's fields or an indirection's items (stars and subscripts left out). */
function fieldNames(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  return list.map((item) => ((item as Json).String as Json | undefined)?.sval).filter((name): name is string => typeof name === 'string');
}

/**
 * Every way a query invokes a function: a call (FuncCall, including ROWS FROM and functions in FROM),
 * field notation (`rel.name` as a ColumnRef, `(expr).name` as A_Indirection: PostgreSQL runs name(arg)
 * when name is not a column) and TABLESAMPLE methods.
 */
function functionViolation(key: string, value: unknown, ownerAllowed: ReadonlySet<string>): string | undefined {
  if (key === 'FuncCall') {
    const fn = qualifiedName((value as Json).funcname);
    return fn ? functionCallRefusal(fn, ownerAllowed) : reasons.parseError('a function call without a name');
  }
  if (key === 'ColumnRef') {
    // rel.func, schema.rel.func and rel.func.field: every name after the first may name a function on the row.
    const names = fieldNames((value as Json).fields);
    // A known unsafe name anywhere is reported by its own name first.
    for (const name of names.slice(1)) {
      const refusal = fieldSelectionRefusal(name);
      if (refusal) return refusal;
    }
    return undefined;
  }
  if (key === 'A_Indirection') {
    const names = fieldNames((value as Json).indirection);
    for (const name of names) {
      const refusal = fieldSelectionRefusal(name);
      if (refusal) return refusal;
    }
    // A refused call inside the expression is the better reason: report it by its name first.
    const inner = walkAst((value as Json).arg, (k, v) => (k === 'FuncCall' ? functionViolation(k, v, ownerAllowed) : undefined));
    if (inner) return inner;
    for (const name of names) {
      const refusal = expressionFieldRefusal(name, ownerAllowed);
      if (refusal) return refusal;
    }
    return undefined;
  }
  if (key === 'RangeTableSample') {
    const method = qualifiedName((value as Json).method);
    return method ? tablesampleRefusal(method.name) : undefined;
  }
  return undefined;
}

/** Data-modifying CTEs, SELECT INTO, locking clauses, functions and denied relations, anywhere in the tree. */
function findViolation(select: Json, ownerAllowed: ReadonlySet<string>): string | undefined {
  return walkAst(select, (key, value) => {
    if (DATA_MODIFYING.has(key)) return reasons.dataModifyingCte(words(key));
    if (key === 'intoClause' && value) {
      const target = ((value as Json).rel as Json | undefined)?.relname;
      return reasons.selectInto(typeof target === 'string' ? `INTO ${target}` : undefined);
    }
    if (key === 'lockingClause' && Array.isArray(value) && value.length > 0) {
      const strength = ((value[0] as Json).LockingClause as Json | undefined)?.strength;
      return reasons.lockingClause(LOCK_STRENGTHS[String(strength)] ?? 'FOR UPDATE');
    }
    const called = functionViolation(key, value, ownerAllowed);
    if (called) return called;
    if (key === 'RangeVar') {
      const relation = value as Json;
      const denied =
        typeof relation.relname === 'string'
          ? deniedRelation('postgres', relation.schemaname as string | undefined, relation.relname)
          : undefined;
      if (denied) return reasons.deniedRelation(denied.shown, denied.why);
    }
    return undefined;
  });
}

/** LIMIT n / FETCH FIRST n ROWS on the outermost query; LIMIT ALL and LIMIT NULL do not limit. */
function hasTopLevelLimit(select: Json): boolean {
  const count = select.limitCount as Json | undefined;
  if (!count) return false;
  return !(count.A_Const as Json | undefined)?.isnull;
}

/**
 * PostgreSQL: libpg-query is the server's own parser (compiled to WASM), so the tree is exactly what the
 * server would run. Runaway recursion (WITH RECURSIVE without an end) is legal SQL and passes here: the
 * statement timeout of the read-only transaction (layer 2) stops it.
 */
export class PostgresGuard implements DialectGuard {
  private loading: Promise<void> | undefined;

  async check(sql: string, options: GuardOptions = {}): Promise<GuardVerdict> {
    await (this.loading ??= loadModule());
    const policy = compilePolicy('postgres', options.tablePolicy, options.defaultSchema);
    return this.checkSync(sql, normaliseAllowedFunctions(options.allowedFunctions), policy);
  }

  private checkSync(sql: string, ownerAllowed: ReadonlySet<string>, policy: CompiledPolicy | undefined): GuardVerdict {
    // The parser reads a C string: text after a NUL would go unseen by the guard.
    if (sql.includes('\0')) return reject(reasons.nulCharacter());
    if (sql.trim() === '') return reject(reasons.empty());

    let statements: Json[];
    try {
      statements = (parseSync(sql).stmts ?? []).map((raw) => raw.stmt as Json);
    } catch (error) {
      return reject(reasons.parseError(parseErrorMessage(sql, error)));
    }
    if (statements.length === 0) return reject(reasons.empty());

    if (statements.length > 1) {
      const index = statements.findIndex((node) => unwrap(node)[0] !== 'SelectStmt');
      const offender = index === -1 ? undefined : { index: index + 1, label: statementLabel(...unwrap(statements[index])) };
      return reject(reasons.multipleStatements(statements.length, offender));
    }

    const [kind, body] = unwrap(statements[0]);
    if (kind === 'ExplainStmt' && isExplainAnalyze(body)) return reject(reasons.explainAnalyze());
    if (kind !== 'SelectStmt') return reject(reasons.notAQuery(statementLabel(kind, body)));

    const violation = findViolation(body, ownerAllowed) ?? (policy ? postgresPolicyViolation(body, policy) : undefined);
    if (violation) return reject(violation);
    return accept(statementText(sql, scanTokens(sql)), hasTopLevelLimit(body));
  }
}
