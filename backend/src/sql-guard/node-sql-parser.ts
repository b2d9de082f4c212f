import mariadbBuild from 'node-sql-parser/build/mariadb.js';
import mysqlBuild from 'node-sql-parser/build/mysql.js';
import sqliteBuild from 'node-sql-parser/build/sqlite.js';
import { walkAst } from './ast-walk.js';
import { deniedFunction, deniedRelation } from './denylist.js';
import { reasons } from './reasons.js';

/**
 * node-sql-parser for MySQL, MariaDB and SQLite. The per-database builds load one grammar each (about
 * 250 KB) instead of the 2.5 MB bundle of every grammar.
 */
export type Grammar = 'MySQL' | 'MariaDB' | 'sqlite';

type Json = Record<string, unknown>;

const BUILDS = { MySQL: mysqlBuild, MariaDB: mariadbBuild, sqlite: sqliteBuild } as const;
const parsers = new Map<Grammar, InstanceType<typeof mysqlBuild.Parser>>();

export interface Parsed {
  /** One statement's AST (an array when the text held several). */
  ast: unknown;
  /** "select::db::table" for every table the parser saw. */
  tableList: string[];
}

/** Parses with the first grammar that accepts the text; throws the first grammar's error otherwise. */
export function parseWith(grammars: readonly Grammar[], sql: string): Parsed {
  let firstError: unknown;
  for (const grammar of grammars) {
    let parser = parsers.get(grammar);
    if (!parser) {
      parser = new BUILDS[grammar].Parser();
      parsers.set(grammar, parser);
    }
    try {
      const { ast, tableList } = parser.parse(sql, { database: grammar });
      return { ast, tableList };
    } catch (error) {
      firstError ??= error;
    }
  }
  throw firstError;
}

/** Comment and whitespace alternatives the PEG parser lists at every position: noise in a message. */
const NOISE = new Set(['"#"', '"--"', '"/*"', '[ \\t\\n\\r]']);

/** The parser's message, with its list of expected tokens cut to the informative few. */
export function parseErrorMessage(error: unknown): string {
  if (error instanceof RangeError) return 'the statement is nested too deeply for the parser';
  const message = error instanceof Error ? error.message : String(error);
  const location = (error as { location?: { start?: { line?: number; column?: number } } }).location?.start;
  const where = location?.line ? ` at line ${location.line}, column ${location.column}` : '';
  const match = /^Expected (.*) but (.*) found\.$/s.exec(message);
  if (!match) return `${message}${where}`;
  const expected = match[1]!.split(/, (?:or )?|\s+or\s+/).filter((e) => !NOISE.has(e.trim()));
  const shown = expected.slice(0, 8).join(', ') + (expected.length > 8 ? ', …' : '');
  return `unexpected ${match[2]}${where} (expected ${shown})`;
}

function functionName(node: Json): string | undefined {
  const name = node.name;
  if (typeof name === 'string') return name;
  const parts = (name as Json | undefined)?.name;
  if (Array.isArray(parts)) {
    const last = parts.at(-1) as Json | undefined;
    return typeof last?.value === 'string' ? last.value : undefined;
  }
  return undefined;
}

/**
 * Rules checked on node-sql-parser's tree: a statement other than SELECT anywhere (a CTE, a subquery),
 * SELECT INTO, locking reads, user-variable assignment, denied functions and tables.
 */
export function astViolation(parsed: Parsed, dialect: 'mysql' | 'sqlite'): string | undefined {
  const statements = Array.isArray(parsed.ast) ? parsed.ast : [parsed.ast];
  if (statements.length !== 1) return reasons.multipleStatements(statements.length);
  const root = statements[0] as Json;
  if (root.type !== 'select') return reasons.notAQuery(String(root.type).replace(/_/g, ' ').toUpperCase());

  for (const entry of parsed.tableList) {
    const [action, db, table] = entry.split('::');
    if (action !== 'select') return reasons.notAQuery(String(action).toUpperCase());
    const denied = table ? deniedRelation(dialect, db === 'null' ? null : db, table) : undefined;
    if (denied) return reasons.deniedRelation(denied.shown, denied.why);
  }

  return walkAst(root, (key, value, parent) => {
    if (key === 'ast' && value && typeof value === 'object' && (value as Json).type !== 'select') {
      const label = String((value as Json).type).toUpperCase();
      return root.with ? reasons.dataModifyingCte(label) : reasons.notAQuery(label);
    }
    if (key === 'into' && value && typeof value === 'object') {
      const into = value as Json;
      if (into.position != null || into.keyword != null) {
        return reasons.selectInto(typeof into.keyword === 'string' ? `INTO ${into.keyword.toUpperCase()}` : undefined);
      }
    }
    if ((key === 'locking_read' || key === 'for_update') && value) {
      return reasons.lockingClause(typeof value === 'string' ? value.toUpperCase() : 'FOR UPDATE');
    }
    if (key === 'type' && value === 'assign') return reasons.variableAssignment();
    if (key === 'type' && value === 'function') {
      const name = functionName(parent);
      const why = name === undefined ? undefined : deniedFunction(dialect, name);
      if (why && name) return reasons.deniedFunction(name.toLowerCase(), why);
    }
    if (key === 'table' && typeof value === 'string') {
      const db = typeof parent.db === 'string' ? parent.db : null;
      const denied = deniedRelation(dialect, db, value);
      if (denied) return reasons.deniedRelation(denied.shown, denied.why);
    }
    return undefined;
  });
}
