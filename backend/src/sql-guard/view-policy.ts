import type { Dialect } from '@aigis/contracts';
import { lex } from './lexer.js';
import type { GuardOptions, SqlGuard } from './sql-guard.js';
import type { TablePolicy } from './table-policy.js';

/** A view (or materialized view) as the database's catalog gives it; `definition` null when the catalog does not show it. */
export interface ViewDefinition {
  schema: string | null;
  name: string;
  definition: string | null;
}

/** A policy entry naming exactly `schema.name`, each part quoted (a part may hold a dot or a quote). */
export function entryFor(view: Pick<ViewDefinition, 'schema' | 'name'>): string {
  const quote = (part: string) => `"${part.replace(/"/g, '""')}"`;
  return view.schema === null ? quote(view.name) : `${quote(view.schema)}.${quote(view.name)}`;
}

/**
 * The query of a SQLite `CREATE [TEMP] VIEW [IF NOT EXISTS] name [(columns)] AS query`: what follows the first
 * `AS` outside parentheses. PostgreSQL (pg_get_viewdef) and MySQL (VIEW_DEFINITION) already give the query alone.
 */
export function viewQuery(dialect: Dialect, definition: string): string | null {
  if (dialect !== 'sqlite') return definition;
  let depth = 0;
  for (const token of lex(definition, { family: 'sqlite' })) {
    if (token.kind === 'punct' && token.value === '(') depth++;
    else if (token.kind === 'punct' && token.value === ')') depth--;
    else if (depth === 0 && token.kind === 'word' && token.value === 'as') return definition.slice(token.end);
  }
  return null;
}

/**
 * The owner's exclusions plus every view whose query the guard refuses under them: a view that reads an excluded
 * table (directly, through another such view, or through a function the guard does not know) would show that
 * table's rows under another name. Failing closed: a view whose definition the catalog hides, or that does not
 * parse, is excluded too. Only exclusions taint a view: an allowlist already refuses every view it does not list.
 */
export async function excludeViewsReadingExcluded(
  guard: SqlGuard,
  dialect: Dialect,
  views: readonly ViewDefinition[],
  policy: TablePolicy,
  options: Pick<GuardOptions, 'allowedFunctions'> = {},
): Promise<TablePolicy> {
  const excluded = [...policy.excluded];
  let pending = [...views];
  // Each pass excludes the views that read what the previous passes excluded, until nothing changes.
  for (let changed = true; changed && pending.length > 0; ) {
    changed = false;
    const clean: ViewDefinition[] = [];
    for (const view of pending) {
      const query = view.definition ? viewQuery(dialect, view.definition) : null;
      const verdict = query
        ? await guard.check(dialect, query, { ...options, tablePolicy: { allowed: [], excluded }, defaultSchema: dialect === 'mysql' ? view.schema : undefined })
        : { ok: false };
      if (verdict.ok) {
        clean.push(view);
      } else {
        excluded.push(entryFor(view));
        changed = true;
      }
    }
    pending = clean;
  }
  return { ...policy, excluded };
}
