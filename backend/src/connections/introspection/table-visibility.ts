import type { SchemaTable } from '@aigis/contracts';
import { type CompiledPolicy, tableVisible } from '../../sql-guard/table-policy.js';

/**
 * The tables a connection's policy lets anyone see (the schema browser, prompts, describe_table): hidden tables
 * go, and so do foreign keys that point at one (they would name it and its key columns). The adapters already
 * skip hidden tables before sampling; this is the same rule applied once more on the assembled result.
 */
export function visibleTables(tables: SchemaTable[], policy: CompiledPolicy | undefined): SchemaTable[] {
  if (!policy) return tables;
  return tables
    .filter((t) => tableVisible(policy, t.schema ?? undefined, t.name))
    .map((t) => ({ ...t, foreign_keys: t.foreign_keys.filter((fk) => tableVisible(policy, fk.referenced_schema ?? t.schema ?? undefined, fk.referenced_table)) }));
}
