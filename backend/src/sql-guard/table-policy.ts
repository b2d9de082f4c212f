import { type Dialect, parseTableEntry, type TableEntry } from '@aigis/contracts';

/**
 * A connection's table policy as its owner writes it: entries `name`, `schema.name` or `schema.*` (a part
 * may be double-quoted to hold a dot: `"odd.schema".orders`). Allowed empty = every table not excluded.
 * In MySQL the schema is the database; an unqualified entry means the connection's own database (allowed)
 * or that name in every schema (excluded).
 */
export interface TablePolicy {
  allowed: readonly string[];
  excluded: readonly string[];
  /** Why an excluded entry the owner did not write is excluded (a parent that reads an excluded partition), by entry. */
  reasons?: Readonly<Record<string, string>>;
}

/** One parsed entry; `name` is undefined for `schema.*`; `because` says why a derived exclusion is one. */
export type PolicyEntry = TableEntry & { because?: string };

/** A relation a query reads, as written: unqualified when `schema` is undefined. */
export interface TableRef {
  schema?: string;
  name: string;
}

/** A policy as the guard and introspection apply it. */
export interface CompiledPolicy {
  dialect: Dialect;
  allowed: PolicyEntry[];
  excluded: PolicyEntry[];
  /** Where an unqualified name resolves: PostgreSQL `public`, MySQL the connection's database, SQLite `main`. */
  defaultSchema: string | undefined;
}

export function compilePolicy(dialect: Dialect, policy: TablePolicy | undefined, defaultSchema?: string | null): CompiledPolicy | undefined {
  if (!policy || (policy.allowed.length === 0 && policy.excluded.length === 0)) return undefined;
  const parse = (entries: readonly string[]) =>
    entries
      .map((text): PolicyEntry | { problem: string } => {
        const entry = parseTableEntry(text);
        const because = policy.reasons?.[text];
        return 'problem' in entry || because === undefined ? entry : { ...entry, because };
      })
      .filter((entry): entry is PolicyEntry => !('problem' in entry));
  const fallback = dialect === 'postgres' ? 'public' : dialect === 'sqlite' ? 'main' : undefined;
  // A stored list that no longer parses must not widen access: an allowlist of nothing allows nothing.
  const allowed = parse(policy.allowed);
  if (policy.allowed.length > 0 && allowed.length === 0) allowed.push({ schema: '\u0000', name: '\u0000' });
  return { dialect, allowed, excluded: parse(policy.excluded), defaultSchema: defaultSchema ?? fallback };
}

/** Exclusions compare case-insensitively whatever the dialect: a case twin is refused too (fail closed). */
const loose = (text: string) => text.toLowerCase();

/**
 * Allowlists compare as the database resolves names: PostgreSQL's parser has already folded unquoted
 * names, MySQL table names are case-sensitive on most servers, SQLite folds ASCII letters only.
 */
function strict(dialect: Dialect, text: string): string {
  return dialect === 'sqlite' ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
}

/** The entry that excludes `ref`, shown as the user wrote the reference. An unqualified name matches `name` in any schema. */
export function excludedBy(policy: CompiledPolicy, ref: TableRef): PolicyEntry | undefined {
  const schema = ref.schema ?? policy.defaultSchema;
  return policy.excluded.find((entry) => {
    if (entry.name === undefined) return schema !== undefined && loose(schema) === loose(entry.schema!);
    if (loose(entry.name) !== loose(ref.name)) return false;
    return entry.schema === undefined || ref.schema === undefined || loose(entry.schema) === loose(ref.schema);
  });
}

/** Whether an allowlist (when there is one) lists `ref`: an unqualified entry or reference means the default schema. */
export function allowedBy(policy: CompiledPolicy, ref: TableRef): boolean {
  if (policy.allowed.length === 0) return true;
  const fold = (text: string | undefined) => (text === undefined ? undefined : strict(policy.dialect, text));
  const schema = fold(ref.schema ?? policy.defaultSchema);
  return policy.allowed.some((entry) => {
    const entrySchema = fold(entry.schema ?? policy.defaultSchema);
    // Both unqualified: the same name resolves the same way, even where the guard cannot know the search path.
    const sameSchema = (entry.schema === undefined && ref.schema === undefined) || (schema !== undefined && schema === entrySchema);
    return sameSchema && (entry.name === undefined || fold(entry.name) === fold(ref.name));
  });
}

export function shownRef(ref: TableRef): string {
  return ref.schema === undefined ? ref.name : `${ref.schema}.${ref.name}`;
}

/** Why `ref` may not be read under the policy, or undefined. */
export function refRefusal(policy: CompiledPolicy, ref: TableRef): string | undefined {
  const excluded = excludedBy(policy, ref);
  if (excluded) return policyReasons.excluded(shownRef(ref), excluded.because);
  if (!allowedBy(policy, ref)) return policyReasons.notAllowed(shownRef(ref));
  return undefined;
}

/** Whether introspection may show a table: the same rules as the guard, on the catalog's exact names. */
export function tableVisible(policy: CompiledPolicy | undefined, schema: string | undefined, name: string): boolean {
  if (!policy) return true;
  const ref = { schema: schema ?? policy.defaultSchema, name };
  return !excludedBy(policy, ref) && allowedBy(policy, ref);
}

export const policyReasons = {
  excluded: (name: string, because?: string) =>
    `table ${name} is excluded on this connection (its owner's table policy)${because === undefined ? '' : `: ${because}`}`,
  notAllowed: (name: string) => `table ${name} is not among this connection's allowed tables (its owner's table policy)`,
  catalog: (name: string) =>
    `${name} is a system catalog: not readable on a connection with a table policy (it would show the tables the policy hides)`,
  catalogFunction: (name: string) =>
    `function ${name} is not allowed on a connection with a table policy (it reads catalog details of any table)`,
  rowType: (name: string) => `type ${name} names an excluded table (its row type shows the table's columns)`,
  unreadable: (what: string) => `the tables this query reads cannot be checked against the connection's table policy (${what})`,
};
