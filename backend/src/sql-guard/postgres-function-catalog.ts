import type pg from 'pg';
import { deniedFunction } from './denylist.js';
import {
  DANGEROUS_EXTENSIONS,
  NOT_FOR_ANALYTICS,
  NOT_FOR_ANALYTICS_PREFIXES,
  PG_PREFIXED_ALLOWED,
  UNCALLABLE_RETURN_TYPES,
  VOLATILE_ALLOWED,
} from './postgres-function-policy.js';

/** One pg_proc row, as the allowlist generator and its test read it. */
export interface ProcRow {
  proname: string;
  nspname: string;
  /** f function, a aggregate, w window, p procedure. */
  prokind: string;
  /** i immutable, s stable, v volatile. */
  provolatile: string;
  prosecdef: boolean;
  rettype: string;
  argtypes: string[];
  /** The extension the function belongs to, or null for a built-in. */
  extname: string | null;
}

export interface PostgresFunctionLists {
  postgresMajor: number;
  serverVersion: string;
  /** Contrib extensions that were installed to record their function names (DANGEROUS_EXTENSIONS ∩ available). */
  extensionsScanned: string[];
  /** Built-in function names a read-only query may call. */
  allowed: string[];
  /**
   * Every other name SQL can call: built-ins not allowed, and the dangerous extensions' functions. Names no
   * SQL can call (support functions taking `internal`, handlers) are in neither list.
   */
  denied: string[];
}

export const PROC_QUERY = `
  SELECT p.proname, n.nspname, p.prokind, p.provolatile, p.prosecdef,
         format_type(p.prorettype, NULL) AS rettype,
         ARRAY(SELECT format_type(t, NULL) FROM unnest(p.proargtypes::oid[]) AS t) AS argtypes,
         e.extname
  FROM pg_proc p
  JOIN pg_namespace n ON n.oid = p.pronamespace
  LEFT JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  LEFT JOIN pg_extension e ON e.oid = d.refobjid
  ORDER BY p.proname`;

/** SQL can call an overload unless it takes or returns `internal` or returns a handler or trigger type. */
export function isCallable(row: ProcRow): boolean {
  return !row.argtypes.includes('internal') && !UNCALLABLE_RETURN_TYPES.includes(row.rettype);
}

export function isBuiltIn(row: ProcRow): boolean {
  return row.nspname === 'pg_catalog' && row.extname === null;
}

const TYPE_INPUT = 'type input function';

/** Why a built-in name is not allowed, or undefined when it is (see postgres-function-policy.ts). */
export function refusal(name: string, overloads: readonly ProcRow[]): string | undefined {
  const family = deniedFunction('postgres', name);
  if (family) return family;
  if (Object.hasOwn(NOT_FOR_ANALYTICS, name)) return NOT_FOR_ANALYTICS[name];
  if (NOT_FOR_ANALYTICS_PREFIXES.some((prefix) => name.startsWith(prefix))) return 'transaction ids and snapshots';
  if (name.startsWith('pg_') && !PG_PREFIXED_ALLOWED.includes(name)) return 'server internals';
  const callable = overloads.filter(isCallable);
  if (callable.length === 0) return 'not callable from SQL';
  // Type input/output functions: every overload reads or writes the C string form.
  if (callable.every((row) => row.argtypes.includes('cstring'))) return TYPE_INPUT;
  for (const row of callable) {
    if (!['f', 'a', 'w'].includes(row.prokind)) return 'a procedure';
    if (row.prosecdef) return 'runs with its owner’s rights';
    if (row.provolatile === 'v' && !Object.hasOwn(VOLATILE_ALLOWED, name)) return 'volatile';
  }
  return undefined;
}

/** Splits pg_proc into the allowed built-in names and every other known name. */
export function classify(rows: readonly ProcRow[]): { allowed: string[]; denied: string[] } {
  const builtIns = new Map<string, ProcRow[]>();
  const extensionNames = new Set<string>();
  for (const row of rows) {
    if (!isCallable(row)) continue;
    if (isBuiltIn(row)) builtIns.set(row.proname, [...(builtIns.get(row.proname) ?? []), row]);
    else if (row.extname && DANGEROUS_EXTENSIONS.includes(row.extname)) extensionNames.add(row.proname);
  }
  const allowed: string[] = [];
  const denied = new Set<string>(extensionNames);
  for (const [name, overloads] of builtIns) {
    const why = refusal(name, overloads);
    if (why === undefined) allowed.push(name);
    // Type input functions parse text like a cast does; left out of `denied`, a column such as date_in stays readable.
    else if (why !== TYPE_INPUT) denied.add(name);
  }
  for (const name of allowed) denied.delete(name);
  return { allowed: allowed.sort(), denied: [...denied].sort() };
}

/**
 * Reads pg_proc of a scratch database in which every available dangerous extension is installed, and
 * classifies it. `admin` must be a superuser connected to the scratch database (it creates extensions).
 */
export async function collectPostgresFunctions(admin: pg.Client): Promise<PostgresFunctionLists> {
  const available = (
    await admin.query<{ name: string }>('SELECT name FROM pg_available_extensions WHERE name = ANY($1) ORDER BY name', [DANGEROUS_EXTENSIONS])
  ).rows.map((r) => r.name);
  for (const name of available) await admin.query(`CREATE EXTENSION IF NOT EXISTS "${name}" CASCADE`);
  const rows = (await admin.query<ProcRow>(PROC_QUERY)).rows;
  const version = (await admin.query<{ v: string; n: string }>("SELECT version() AS v, current_setting('server_version_num') AS n")).rows[0]!;
  return {
    postgresMajor: Math.floor(Number(version.n) / 10000),
    serverVersion: version.v,
    extensionsScanned: available,
    ...classify(rows),
  };
}
