import type { Token } from './lexer.js';
import { postgresNames } from './postgres-tables.js';
import { type CompiledPolicy, excludedBy, policyReasons, refRefusal, shownRef } from './table-policy.js';
import { RESERVED_EVERYWHERE, rawName, tokenTables } from './token-tables.js';

/**
 * The table policy, on top of every other guard rule (only a connection with a policy pays for it).
 * Relations are read exactly (PostgreSQL's own tree; the dialect's own tokens for MySQL and SQLite) and
 * checked against the allowlist; exclusions are checked more widely still, failing closed: a CTE, an alias
 * or a column named like an excluded table is refused too, and in MySQL/SQLite any identifier is compared,
 * so no difference between our reading and the server's can let an excluded name through. System catalogs
 * are refused whenever a policy is set: they would list the hidden tables' names, columns and statistics.
 */

const POSTGRES_CATALOG_SCHEMAS = new Set(['pg_catalog', 'information_schema', 'pg_toast']);
const MYSQL_CATALOG_SCHEMAS = new Set(['information_schema', 'performance_schema', 'mysql', 'sys']);
const SQLITE_CATALOG_TABLES = new Set(['sqlite_master', 'sqlite_schema', 'sqlite_temp_master', 'sqlite_temp_schema', 'sqlite_sequence', 'dbstat']);

/** PostgreSQL functions that read catalog details (definitions, comments, sizes, privileges) of a table given by name or OID. */
const POSTGRES_CATALOG_FUNCTIONS = new Set([
  'col_description', 'obj_description', 'shobj_description', 'pg_describe_object', 'pg_relation_size', 'pg_table_size',
  'pg_total_relation_size', 'pg_indexes_size', 'pg_relation_filenode', 'pg_column_is_updatable', 'pg_relation_is_updatable',
  'pg_index_column_has_property', 'pg_index_has_property', 'pg_indexam_has_property',
]);
const POSTGRES_CATALOG_FUNCTION_PREFIXES = ['pg_get_', 'pg_identify_object', 'to_reg', 'has_'];
/** Object-identifier types: `'secret'::regclass` is the way into every function above. */
const POSTGRES_REG_TYPES = new Set([
  'regclass', 'regtype', 'regproc', 'regprocedure', 'regoper', 'regoperator', 'regnamespace', 'regrole', 'regcollation',
  'regconfig', 'regdictionary',
]);

function postgresCatalogFunction(name: string): boolean {
  return POSTGRES_CATALOG_FUNCTIONS.has(name) || POSTGRES_CATALOG_FUNCTION_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** PostgreSQL: the SelectStmt body libpg-query produced. */
export function postgresPolicyViolation(body: Record<string, unknown>, policy: CompiledPolicy): string | undefined {
  const names = postgresNames(body);
  for (const relation of names.relations) {
    const { cte, ...ref } = relation;
    const excluded = excludedBy(policy, ref);
    if (excluded) return policyReasons.excluded(shownRef(ref), excluded.because);
    if (cte) continue;
    const catalog = ref.schema !== undefined ? POSTGRES_CATALOG_SCHEMAS.has(ref.schema.toLowerCase()) : ref.name.toLowerCase().startsWith('pg_');
    if (catalog) return policyReasons.catalog(shownRef(ref));
    const refusal = refRefusal(policy, ref);
    if (refusal) return refusal;
  }
  for (const type of names.types) {
    if (POSTGRES_REG_TYPES.has(type.name.toLowerCase())) return policyReasons.catalogFunction(`::${type.name.toLowerCase()}`);
    if (excludedBy(policy, type)) return policyReasons.rowType(shownRef(type));
  }
  const fn = names.functions.find(postgresCatalogFunction);
  return fn ? policyReasons.catalogFunction(fn) : undefined;
}

/** MySQL "…" may be an identifier (ANSI_QUOTES): compared as a name for exclusions. */
function looseName(token: Token | undefined, dialect: 'mysql' | 'sqlite'): string | undefined {
  if (!token) return undefined;
  if (token.kind === 'word' || token.kind === 'quoted') return token.value;
  if (dialect === 'mysql' && token.kind === 'string' && token.quote === '"') return token.value;
  return undefined;
}

function isDot(token: Token | undefined): boolean {
  return token?.kind === 'punct' && token.value === '.';
}

/** Every identifier of the statement against the exclusions and the catalogs (lower-cased, as the lexer gives them). */
function identifierViolation(sql: string, stmt: readonly Token[], policy: CompiledPolicy, dialect: 'mysql' | 'sqlite'): string | undefined {
  for (let i = 0; i < stmt.length; i++) {
    const token = stmt[i]!;
    const name = looseName(token, dialect);
    if (name === undefined) continue;
    const qualified = isDot(stmt[i - 1]);
    if (token.kind === 'word' && !qualified && RESERVED_EVERYWHERE.has(name)) continue;
    const qualifier = qualified ? looseName(stmt[i - 2], dialect) : undefined;
    const qualifies = isDot(stmt[i + 1]);
    if (dialect === 'mysql' && qualifies && MYSQL_CATALOG_SCHEMAS.has(name)) return policyReasons.catalog(`${name}.*`);
    if (dialect === 'sqlite' && (SQLITE_CATALOG_TABLES.has(name) || name.startsWith('sqlite_stat'))) return policyReasons.catalog(name);
    if (dialect === 'sqlite' && name.startsWith('pragma_')) return policyReasons.catalogFunction(name);
    for (const entry of policy.excluded) {
      if (entry.name === undefined) {
        if (qualifies && entry.schema!.toLowerCase() === name) return policyReasons.excluded(`${name}.*`);
        continue;
      }
      if (entry.name.toLowerCase() !== name) continue;
      if (entry.schema === undefined || qualifier === undefined || entry.schema.toLowerCase() === qualifier) {
        // Shown as written (the comparison above is case-insensitive).
        const shown = rawName(sql, token) ?? name;
        const shownQualifier = qualified ? (rawName(sql, stmt[i - 2]) ?? qualifier) : undefined;
        return policyReasons.excluded(shownQualifier === undefined ? shown : `${shownQualifier}.${shown}`, entry.because);
      }
    }
  }
  return undefined;
}

/** MySQL/MariaDB and SQLite: the one statement's code tokens from the dialect's own lexer. */
export function tokenPolicyViolation(sql: string, stmt: readonly Token[], dialect: 'mysql' | 'sqlite', policy: CompiledPolicy): string | undefined {
  const identifier = identifierViolation(sql, stmt, policy, dialect);
  if (identifier) return identifier;
  const tables = tokenTables(sql, stmt, dialect);
  if ('unreadable' in tables) return policyReasons.unreadable(tables.unreadable);
  for (const relation of tables.relations) {
    const { cte, at: _at, ...ref } = relation;
    const excluded = excludedBy(policy, ref);
    if (excluded) return policyReasons.excluded(shownRef(ref), excluded.because);
    if (cte) continue;
    if (dialect === 'mysql') {
      const schema = (ref.schema ?? policy.defaultSchema)?.toLowerCase();
      if (schema !== undefined && MYSQL_CATALOG_SCHEMAS.has(schema)) return policyReasons.catalog(shownRef(ref));
    }
    const refusal = refRefusal(policy, ref);
    if (refusal) return refusal;
  }
  return undefined;
}
