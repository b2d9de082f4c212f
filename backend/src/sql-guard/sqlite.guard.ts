import Database from 'better-sqlite3';
import { accept, reject, type DialectGuard } from './dialect-guard.js';
import { normaliseAllowedFunctions } from './allowed-functions.js';
import { lex } from './lexer.js';
import { astViolation, parseErrorMessage, parseWith, type Parsed } from './node-sql-parser.js';
import { reasons } from './reasons.js';
import type { GuardOptions, GuardVerdict } from './sql-guard.js';
import { hasTopLevelLimitToken, tokenPhase } from './token-rules.js';
import { compilePolicy, type CompiledPolicy } from './table-policy.js';
import { tokenPolicyViolation } from './table-policy-check.js';

/**
 * SQLite's errors that come after a complete parse: an empty scratch database has no tables, so name
 * resolution of a real query always fails this way. Any other error (syntax, parser stack overflow,
 * misuse) refuses the statement: the fallback accepts only what SQLite has provably parsed.
 */
const RESOLUTION_ERROR = /^no such (table|column|function|window|collation sequence|module): /i;

/**
 * SQLite: node-sql-parser's 'sqlite' grammar, with SQLite's own parser behind it. That grammar lacks
 * common SQLite syntax (NULLS FIRST/LAST, EXCEPT, OVER (ORDER BY …) without PARTITION BY, a few reserved
 * aliases), so when it fails the statement is compiled by SQLite itself against an empty in-memory
 * database. One that compiles, or fails only name resolution ("no such table"), was parsed completely
 * and is judged by the token rules alone; any other error rejects it. Those rules are conservative
 * (SQLite's INSERT/UPDATE/DELETE are reserved words) and the connection is opened read-only (layer 2).
 */
export class SqliteGuard implements DialectGuard {
  private scratch: Database.Database | undefined;

  async check(sql: string, options: GuardOptions = {}): Promise<GuardVerdict> {
    const policy = compilePolicy('sqlite', options.tablePolicy, options.defaultSchema);
    return this.checkSync(sql, normaliseAllowedFunctions(options.allowedFunctions), policy);
  }

  private checkSync(sql: string, ownerAllowed: ReadonlySet<string>, policy: CompiledPolicy | undefined): GuardVerdict {
    if (sql.includes('\0')) return reject(reasons.nulCharacter());

    const tokens = lex(sql, { family: 'sqlite' });
    const phase = tokenPhase(sql, tokens, 'sqlite', ownerAllowed);
    if ('reason' in phase) return reject(phase.reason);
    const { statement, text, head } = phase;
    // Decided on the tokens, before the parser: it also covers the statements only SQLite itself parses.
    const tables = policy && head.known ? tokenPolicyViolation(sql, statement, 'sqlite', policy) : undefined;
    if (tables) return reject(tables);

    let parsed: Parsed;
    try {
      parsed = parseWith(['sqlite'], text);
    } catch (error) {
      // Only a query that passed the token rules, or text whose first word SQLite already refuses, gets
      // here: compiling a PRAGMA could change process-wide settings (soft_heap_limit) even on a scratch db.
      const failure = this.sqliteParseError(text);
      if (!head.known) return reject(reasons.parseError(failure ?? parseErrorMessage(error)));
      return failure ? reject(reasons.parseError(failure)) : accept(text, hasTopLevelLimitToken(statement));
    }
    if (!head.known) return reject(reasons.notAQuery(head.label));

    const violation = astViolation(parsed, 'sqlite');
    if (violation) return reject(violation);
    return accept(text, hasTopLevelLimitToken(statement));
  }

  /** SQLite's own error for `text` when it cannot parse it, or undefined when it can. Compiles, never runs. */
  private sqliteParseError(text: string): string | undefined {
    this.scratch ??= new Database(':memory:');
    try {
      this.scratch.prepare(text);
      return undefined;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return RESOLUTION_ERROR.test(message) ? undefined : message;
    }
  }
}
