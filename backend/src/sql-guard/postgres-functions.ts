import { deniedFunction } from './denylist.js';
import { NOT_FOR_ANALYTICS, TABLESAMPLE_METHODS } from './postgres-function-policy.js';
import { POSTGRES_FUNCTIONS } from './postgres-functions.generated.js';
import { reasons } from './reasons.js';

const ALLOWED = new Set(POSTGRES_FUNCTIONS.allowed);
const DENIED = new Set(POSTGRES_FUNCTIONS.denied);

/** A function as a query names it: `name`, `schema.name`; parts exactly as the parser resolved them. */
export interface FunctionName {
  schema?: string;
  name: string;
}

function shown(fn: FunctionName): string {
  return fn.schema && fn.schema !== 'pg_catalog' ? `${fn.schema}.${fn.name}` : fn.name;
}

/**
 * Why a known unsafe name is refused: its family or its policy note. Compared lower-cased, so a quoted
 * `"PG_READ_FILE"` is refused too although PostgreSQL would look for a different name.
 */
function knownRefusal(fn: FunctionName): string | undefined {
  const lower = fn.name.toLowerCase();
  const family = deniedFunction('postgres', lower);
  if (family) return reasons.deniedFunction(shown(fn).toLowerCase(), family);
  if (DENIED.has(lower)) {
    const note = Object.hasOwn(NOT_FOR_ANALYTICS, lower) ? NOT_FOR_ANALYTICS[lower]! : 'not safe for read-only analytics';
    return reasons.deniedFunction(shown(fn), note);
  }
  return undefined;
}

/**
 * Whether a query may call `fn`: a built-in on the allowlist (unqualified or in pg_catalog), or a function
 * the connection's owner allowed by exactly this name. Denied families and known unsafe names are refused
 * even when the owner lists them.
 */
export function functionCallRefusal(fn: FunctionName, ownerAllowed: ReadonlySet<string>): string | undefined {
  const known = knownRefusal(fn);
  if (known) return known;
  if ((fn.schema === undefined || fn.schema === 'pg_catalog') && ALLOWED.has(fn.name)) return undefined;
  if (ownerAllowed.has(fn.schema === undefined ? fn.name : `${fn.schema}.${fn.name}`)) return undefined;
  return reasons.notAllowedFunction(shown(fn));
}

/**
 * Field selection `(arg).name` or `rel.name` runs `name(arg)` when `name` is not a column. A name that is
 * a known unsafe function is refused; any other name is read as a column (a user-defined function reached
 * this way still runs inside the READ ONLY transaction, layer 2).
 */
export function fieldSelectionRefusal(name: string): string | undefined {
  return knownRefusal({ name });
}

export function tablesampleRefusal(method: string): string | undefined {
  return TABLESAMPLE_METHODS.includes(method) ? undefined : reasons.deniedFunction(method, 'not a known TABLESAMPLE method');
}

/**
 * `(expr).name`: on a row value it selects a field, on anything else PostgreSQL calls name(expr). A static
 * guard cannot tell which, and analytics rarely select fields of a parenthesised expression, so the name
 * must be a function a query may call anyway (the allowlist, or one the owner allowed); `(expr).*` stays.
 */
export function expressionFieldRefusal(name: string, ownerAllowed: ReadonlySet<string>): string | undefined {
  const known = knownRefusal({ name });
  if (known) return known;
  if (ALLOWED.has(name) || ownerAllowed.has(name)) return undefined;
  return reasons.expressionField(name);
}
