import { ALLOWED_FUNCTION_PATTERN } from '@aigis/contracts';
import { deniedFunction } from './denylist.js';
import { POSTGRES_FUNCTIONS } from './postgres-functions.generated.js';

const KNOWN_UNSAFE = new Set(POSTGRES_FUNCTIONS.denied);

/**
 * Why a connection's owner cannot allow `entry`, or undefined when they can. The guard refuses denied
 * families and known unsafe built-ins whatever the owner lists; saying so when the list is saved is kinder
 * than a refusal at query time.
 */
export function allowedFunctionProblem(entry: string): string | undefined {
  if (!ALLOWED_FUNCTION_PATTERN.test(entry)) return `"${entry}" is not a function name (use name or schema.name, unquoted)`;
  const name = entry.toLowerCase().split('.').at(-1)!;
  const why = deniedFunction('postgres', name) ?? deniedFunction('mysql', name) ?? deniedFunction('sqlite', name);
  if (why) return `${entry} cannot be allowed (${why})`;
  if (KNOWN_UNSAFE.has(name)) return `${entry} cannot be allowed (a PostgreSQL function that is not safe for read-only queries)`;
  return undefined;
}

/** Owner-allowed names as the guards compare them: trimmed and lower-cased, like unquoted names are folded. */
export function normaliseAllowedFunctions(entries: readonly string[] | undefined): Set<string> {
  return new Set((entries ?? []).map((entry) => entry.trim().toLowerCase()).filter((entry) => entry !== ''));
}
