import type { TableRef } from './table-policy.js';

type Json = Record<string, unknown>;

/** A relation named in a PostgreSQL tree; `cte` when the name resolves to a CTE in scope there. */
export interface PostgresRelation extends TableRef {
  cte: boolean;
}

/** What a PostgreSQL tree names besides relations, for the table policy. */
export interface PostgresNames {
  relations: PostgresRelation[];
  /** Type names (casts, row types): `null::secret` shows a table's columns. */
  types: TableRef[];
  /** Every function called, lower-cased last part. */
  functions: string[];
}

function sval(node: unknown): string | undefined {
  const value = ((node as Json | undefined)?.String as Json | undefined)?.sval;
  return typeof value === 'string' ? value : undefined;
}

/**
 * Every RangeVar of libpg-query's tree with the CTE names visible where it stands. A CTE is visible in the
 * rest of the query that owns its WITH, in the CTEs after it, and in itself under RECURSIVE; that is the
 * narrowest reading of every dialect, so a name taken for a CTE is one on every server (a wider reading
 * would let `WITH b AS (…)` hide the real table b from an earlier CTE). Walked with an explicit stack:
 * `a + b + …` nests thousands deep.
 */
export function postgresNames(root: Json): PostgresNames {
  const names: PostgresNames = { relations: [], types: [], functions: [] };
  const stack: { node: unknown; scope: ReadonlySet<string> }[] = [{ node: root, scope: new Set() }];
  while (stack.length > 0) {
    const { node, scope } = stack.pop()!;
    if (Array.isArray(node)) {
      for (const item of node) stack.push({ node: item, scope });
      continue;
    }
    if (node === null || typeof node !== 'object') continue;
    const record = node as Json;
    if (record.withClause) {
      const withClause = record.withClause as Json;
      const ctes = ((withClause.ctes as unknown[]) ?? []).map((c) => (c as Json).CommonTableExpr as Json);
      const recursive = withClause.recursive === true;
      let visible = new Set(scope);
      for (const cte of ctes) {
        const name = String(cte.ctename);
        stack.push({ node: cte.ctequery, scope: recursive ? new Set([...visible, name]) : visible });
        visible = new Set([...visible, name]);
      }
      // The rest of the query that owns this WITH sees every CTE of it.
      stack.push({ node: { ...record, withClause: undefined }, scope: visible });
      continue;
    }
    for (const [key, value] of Object.entries(record)) {
      if (key === 'RangeVar') {
        const rv = value as Json;
        const name = typeof rv.relname === 'string' ? rv.relname : '';
        const schema = typeof rv.schemaname === 'string' ? rv.schemaname : undefined;
        names.relations.push({ ...(schema !== undefined ? { schema } : {}), name, cte: schema === undefined && scope.has(name) });
        continue;
      }
      // A TypeName node, or the typeName field of a TypeCast / column definition.
      if (key === 'TypeName' || key === 'typeName') {
        const parts = (((value as Json).names as unknown[]) ?? []).map(sval).filter((p): p is string => p !== undefined);
        if (parts.length > 0) names.types.push(parts.length > 1 ? { schema: parts.at(-2)!, name: parts.at(-1)! } : { name: parts[0]! });
      }
      if (key === 'FuncCall') {
        const last = sval(((value as Json).funcname as unknown[] | undefined)?.at(-1));
        if (last) names.functions.push(last.toLowerCase());
      }
      stack.push({ node: value, scope });
    }
  }
  return names;
}
