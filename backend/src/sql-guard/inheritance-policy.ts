import { compilePolicy, excludedBy, type TablePolicy, tableVisible } from './table-policy.js';
import { entryFor } from './view-policy.js';

/** One row of PostgreSQL's pg_inherits by name: `child` is a partition of `parent`, or inherits from it. */
export interface InheritanceEdge {
  parentSchema: string;
  parentName: string;
  childSchema: string;
  childName: string;
}

const keyOf = (schema: string, name: string) => `${schema}\u0000${name}`;

/**
 * The policy plus every PostgreSQL parent table that reads a hidden descendant: `SELECT * FROM events` reads all
 * of events' partitions (and partitions of those), `SELECT * FROM parent_t` every table that INHERITS it. A
 * descendant is hidden when it is excluded or, with an allowlist, not listed. Such a parent is excluded whole,
 * `ONLY parent` included (the safe default: the guard does not tell the two apart), with a reason naming the
 * hidden descendant. Linear in the edges, whatever the depth.
 */
export function excludeParentsReadingHidden(edges: readonly InheritanceEdge[], policy: TablePolicy): TablePolicy {
  const compiled = compilePolicy('postgres', policy);
  if (!compiled || edges.length === 0) return policy;
  const parentsOf = new Map<string, { schema: string; name: string }[]>();
  for (const edge of edges) {
    const child = keyOf(edge.childSchema, edge.childName);
    const parents = parentsOf.get(child) ?? [];
    parents.push({ schema: edge.parentSchema, name: edge.parentName });
    parentsOf.set(child, parents);
  }
  // From each hidden descendant up through its ancestors; each ancestor is named for the first one that reaches it.
  const because = new Map<string, string>();
  const queue: { schema: string; name: string; reason: string }[] = [];
  for (const edge of edges) {
    const { childSchema: schema, childName: name } = edge;
    if (tableVisible(compiled, schema, name)) continue;
    const why = excludedBy(compiled, { schema, name }) ? 'which is excluded' : "which is not among the connection's allowed tables";
    queue.push({ schema, name, reason: `it reads its partition or inheritance child ${schema}.${name}, ${why} (PostgreSQL reads a table's partitions and children with it, so the parent is refused whole, ONLY included; query the allowed partitions directly)` });
  }
  for (let i = 0; i < queue.length; i++) {
    const next = queue[i]!;
    for (const parent of parentsOf.get(keyOf(next.schema, next.name)) ?? []) {
      const key = keyOf(parent.schema, parent.name);
      if (because.has(key)) continue;
      because.set(key, next.reason);
      queue.push({ ...parent, reason: next.reason });
    }
  }
  if (because.size === 0) return policy;
  const excluded = [...policy.excluded];
  const reasons: Record<string, string> = { ...policy.reasons };
  for (const [key, reason] of because) {
    const [schema, name] = key.split('\u0000') as [string, string];
    const entry = entryFor({ schema, name });
    excluded.push(entry);
    reasons[entry] = reason;
  }
  return { ...policy, excluded, reasons };
}
