import type { Dialect } from '@aigis/contracts';

/** Always quotes: safe for any name, including mixed case, spaces, quotes and non-ASCII ("schlüsselwort"). */
export function quoteIdent(dialect: Dialect, name: string): string {
  if (name.includes('\u0000')) throw new Error('identifier contains a NUL character');
  if (dialect === 'mysql') return `\`${name.replaceAll('`', '``')}\``;
  return `"${name.replaceAll('"', '""')}"`;
}

/** `schema.table`, both parts quoted; a null schema gives just the table. */
export function quoteQualified(dialect: Dialect, schema: string | null | undefined, name: string): string {
  return schema ? `${quoteIdent(dialect, schema)}.${quoteIdent(dialect, name)}` : quoteIdent(dialect, name);
}

// Words that cannot stand unquoted as a name in at least one dialect (kept short: the common collisions).
const RESERVED = new Set(
  `all analyse analyze and any array as asc asymmetric both case cast check collate column constraint create
  current_catalog current_date current_role current_time current_timestamp current_user default deferrable desc
  distinct do else end except false fetch for foreign from grant group having in initially intersect into lateral
  leading limit localtime localtimestamp not null offset on only or order placing primary references returning
  select session_user some symmetric table then to trailing true union unique user using variadic when where window
  with key keys index range rank row rows interval div mod read write database schema replace delete insert update
  match natural left right inner outer full join cross like ilike is isnull notnull between exists values set`
    .split(/\s+/)
    .filter(Boolean),
);

/**
 * The name as a model should write it: bare when that is unambiguous, quoted otherwise.
 * PostgreSQL folds unquoted names to lower case, so anything but lower-case ASCII is quoted there.
 */
export function displayIdent(dialect: Dialect, name: string): string {
  const plain = dialect === 'postgres' ? /^[a-z_][a-z0-9_]*$/ : /^[A-Za-z_][A-Za-z0-9_]*$/;
  return plain.test(name) && !RESERVED.has(name.toLowerCase()) ? name : quoteIdent(dialect, name);
}

export function displayQualified(dialect: Dialect, schema: string | null | undefined, name: string): string {
  return schema ? `${displayIdent(dialect, schema)}.${displayIdent(dialect, name)}` : displayIdent(dialect, name);
}
