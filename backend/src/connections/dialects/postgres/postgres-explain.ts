import type { QueryEstimate } from '@aigis/contracts';

/** Prepended by our code to a statement the guard accepted; never taken from user text. */
export const POSTGRES_EXPLAIN_PREFIX = 'EXPLAIN (FORMAT JSON, VERBOSE) ';

/** reltuples of the relations a plan reads whole ($1 schemas, $2 names, pairwise). */
export const POSTGRES_RELATION_ROWS_SQL = `
  SELECT n.nspname AS schema, c.relname AS name, c.reltuples::float8 AS rows
  FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  JOIN unnest($1::text[], $2::text[]) AS r(schema, name) ON r.schema = n.nspname AND r.name = c.relname`;

interface PlanNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  Schema?: string;
  'Total Cost'?: number;
  'Plan Rows'?: number;
  Plans?: PlanNode[];
}

export interface PostgresPlanSummary {
  cost: number | null;
  rows: number | null;
  /** Sequential scans: the relation and the planner's row estimate for the scan node. */
  seqScans: { schema: string; name: string; planRows: number }[];
}

/** Reads the output of `EXPLAIN (FORMAT JSON, VERBOSE)`: total cost, the largest row estimate, sequential scans. */
export function summarizePostgresPlan(output: unknown): PostgresPlanSummary {
  const parsed = typeof output === 'string' ? (JSON.parse(output) as unknown) : output;
  const root = (Array.isArray(parsed) ? parsed[0] : parsed) as { Plan?: PlanNode } | undefined;
  const plan = root?.Plan;
  if (!plan) return { cost: null, rows: null, seqScans: [] };
  let rows = 0;
  const seqScans: PostgresPlanSummary['seqScans'] = [];
  const stack: PlanNode[] = [plan];
  // Iterative: a deep plan must not exhaust the stack.
  for (let node = stack.pop(); node; node = stack.pop()) {
    rows = Math.max(rows, finite(node['Plan Rows']) ?? 0);
    if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) {
      seqScans.push({ schema: node.Schema ?? 'public', name: node['Relation Name'], planRows: finite(node['Plan Rows']) ?? 0 });
    }
    if (Array.isArray(node.Plans)) stack.push(...node.Plans);
  }
  return { cost: finite(plan['Total Cost']), rows, seqScans };
}

/** The estimate, with each scanned relation sized by reltuples (-1 before the first ANALYZE: the scan's own estimate then). */
export function postgresEstimate(summary: PostgresPlanSummary, relationRows: { schema: string; name: string; rows: number }[]): QueryEstimate {
  const sizes = new Map(relationRows.map((r) => [`${r.schema}.${r.name}`, Number(r.rows)]));
  const scans = new Map<string, number | null>();
  for (const scan of summary.seqScans) {
    const known = sizes.get(`${scan.schema}.${scan.name}`);
    const rows = known !== undefined && known >= 0 ? known : scan.planRows;
    const label = scan.schema === 'public' ? scan.name : `${scan.schema}.${scan.name}`;
    scans.set(label, Math.max(scans.get(label) ?? 0, Math.round(rows)));
  }
  return { cost: summary.cost, rows: summary.rows, scans: [...scans].map(([table, rows]) => ({ table, rows })) };
}

function finite(value: unknown): number | null {
  const n = Number(value);
  return value !== undefined && value !== null && Number.isFinite(n) ? n : null;
}
