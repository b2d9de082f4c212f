import { accept, reject, type DialectGuard } from './dialect-guard.js';
import { normaliseAllowedFunctions } from './allowed-functions.js';
import { lex, type Token } from './lexer.js';
import { astViolation, parseErrorMessage, parseWith, type Grammar, type Parsed } from './node-sql-parser.js';
import { reasons } from './reasons.js';
import type { GuardOptions, GuardVerdict } from './sql-guard.js';
import { hasTopLevelLimitToken, tokenPhase } from './token-rules.js';
import { compilePolicy, type CompiledPolicy } from './table-policy.js';
import { tokenPolicyViolation } from './table-policy-check.js';

/** `/*!…*\/` and `/*M!…*\/` run their content; `/*+…*\/` hints can lift MAX_EXECUTION_TIME. */
function commentViolation(tokens: readonly Token[]): string | undefined {
  for (const token of tokens) {
    if (token.kind !== 'comment' || !token.value.startsWith('/*')) continue;
    if (token.value.startsWith('/*!')) return reasons.executableComment('/*!');
    if (/^\/\*m!/i.test(token.value)) return reasons.executableComment('/*M!');
    if (token.value.startsWith('/*+')) return reasons.optimizerHint();
  }
  return undefined;
}

/** MySQL's grammar first; MariaDB's for the syntax only MariaDB has. */
const GRAMMARS: readonly Grammar[] = ['MySQL', 'MariaDB'];

function sameBoundaries(a: readonly Token[], b: readonly Token[]): boolean {
  return a.length === b.length && a.every((t, i) => t.start === b[i]!.start && t.end === b[i]!.end && t.kind === b[i]!.kind);
}

/**
 * MySQL and MariaDB (one guard serves both): node-sql-parser's MySQL grammar, then its MariaDB grammar
 * for MariaDB-only syntax. Comments, statement boundaries and the token rules come from MySQL's own
 * lexing rules first, because the parsers drop comments and the server runs executable ones.
 */
export class MysqlGuard implements DialectGuard {
  async check(sql: string, options: GuardOptions = {}): Promise<GuardVerdict> {
    const policy = compilePolicy('mysql', options.tablePolicy, options.defaultSchema);
    return this.checkSync(sql, normaliseAllowedFunctions(options.allowedFunctions), policy);
  }

  private checkSync(sql: string, ownerAllowed: ReadonlySet<string>, policy: CompiledPolicy | undefined): GuardVerdict {
    if (sql.includes('\0')) return reject(reasons.nulCharacter());

    // The guard cannot know the server's sql_mode, so it lexes with and without backslash escapes
    // (NO_BACKSLASH_ESCAPES; ANSI_QUOTES reads "…" the same way) and refuses text the two read differently.
    const tokens = lex(sql, { family: 'mysql', backslashEscapes: true });
    const literal = lex(sql, { family: 'mysql', backslashEscapes: false });
    const comment = commentViolation(tokens) ?? commentViolation(literal);
    if (comment) return reject(comment);
    if (!sameBoundaries(tokens, literal)) return reject(reasons.ambiguousQuoting());

    const phase = tokenPhase(sql, tokens, 'mysql', ownerAllowed);
    if ('reason' in phase) return reject(phase.reason);
    const { statement, text, head } = phase;
    // Decided on the tokens, before the parser: it also covers the statements only SQLite itself parses.
    const tables = policy && head.known ? tokenPolicyViolation(sql, statement, 'mysql', policy) : undefined;
    if (tables) return reject(tables);

    let parsed: Parsed;
    try {
      parsed = parseWith(GRAMMARS, text);
    } catch (error) {
      return reject(reasons.parseError(parseErrorMessage(error)));
    }
    if (!head.known) return reject(reasons.notAQuery(head.label));

    const violation = astViolation(parsed, 'mysql');
    if (violation) return reject(violation);
    return accept(text, hasTopLevelLimitToken(statement));
  }
}
