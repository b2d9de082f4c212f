import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { createAdapter } from '../src/connections/dialects/index.js';
import { uniqueColumnNames } from '../src/connections/dialects/json-safe.js';
import { renderSchemaMarkdown } from '../src/connections/introspection/schema-markdown.js';
import { ParserSqlGuard } from '../src/sql-guard/parser-sql-guard.js';
import { sharedPath } from '@aigis/test-support/env';
import { createPgDefogDatabases, DEFOG_DATABASES, type DefogDatabase, type PgDatabase } from './support/fixtures.js';

/** One question of defog sql-eval with every gold variant and what it returned on PostgreSQL 15. */
interface GoldQuestion {
  id: string;
  db: DefogDatabase;
  gold_sql_variants: string[];
  pg15_execution: { ok: boolean; rows: number; cols: string[] }[];
}

const questions: GoldQuestion[] = fs
  .readFileSync(sharedPath('benchmarks/defog_sql_eval/postgres_gold_verified.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => JSON.parse(line) as GoldQuestion);

/**
 * Gold queries that read the clock (CURRENT_DATE, NOW(), …): the verified row counts hold only on the
 * weekday they were recorded (e.g. "payments in the previous ISO week"), so for these the columns are
 * compared and the row count is not.
 */
const READS_CLOCK = /\b(current_date|current_timestamp|now\s*\(|localtimestamp|localtime|clock_timestamp)/i;

let databases: Record<DefogDatabase, PgDatabase>;
const adapters = {} as Record<DefogDatabase, DialectAdapter>;

beforeAll(async () => {
  databases = await createPgDefogDatabases();
  for (const name of DEFOG_DATABASES) {
    adapters[name] = createAdapter(databases[name].target({ id: `defog-${name}` }), { connectTimeoutMs: 5000, poolMax: 2 });
  }
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(adapters).map((a) => a.close()));
  if (databases) await Promise.all(Object.values(databases).map((d) => d.drop()));
});

describe('the 11 defog sql-eval databases (PostgreSQL)', () => {
  it.each(DEFOG_DATABASES)('%s: introspects with samples and no failures', async (name) => {
    const { tables, catalogQueries } = await adapters[name].introspect({ sampleRows: 3, sampleConcurrency: 8, sampleTimeoutMs: 5000 });
    expect(catalogQueries).toBe(3);
    expect(tables.length).toBeGreaterThan(2);
    expect(tables.filter((t) => t.sample_error)).toEqual([]);
    expect(tables.some((t) => t.sample_rows.length > 0)).toBe(true);
    const { markdown, markdown_mode: mode } = renderSchemaMarkdown(tables, { dialect: 'postgres', budgetChars: 24_000 });
    expect(mode).toBe('full');
    // ewallet lives in schema consumer_div: the model must see qualified names.
    if (name === 'ewallet') expect(markdown).toContain('## consumer_div.');
  });

  it('has the 487 verified variants of 314 questions', () => {
    expect(questions).toHaveLength(314);
    expect(questions.reduce((n, q) => n + q.gold_sql_variants.length, 0)).toBe(487);
  });

  // All layers of read-only execution: the parser guard, then the read-only transaction with its timeout and row cap.
  it('accepts every gold query in the guard and runs it with the rows and columns PostgreSQL returned', async () => {
    const guard = new ParserSqlGuard();
    const mismatches: string[] = [];
    let executed = 0;
    for (const q of questions) {
      for (const [i, sql] of q.gold_sql_variants.entries()) {
        const expected = q.pg15_execution[i];
        const verdict = await guard.check('postgres', sql);
        if (!verdict.ok) {
          mismatches.push(`${q.id}#${i}: rejected: ${verdict.reason}`);
          continue;
        }
        try {
          const result = await adapters[q.db].executeReadOnly(verdict.sql, { maxRows: 100_000, timeoutMs: 10_000 });
          executed++;
          const rowsDiffer = !READS_CLOCK.test(sql) && result.rows.length !== expected.rows;
          if (rowsDiffer || JSON.stringify(result.columns) !== JSON.stringify(uniqueColumnNames(expected.cols))) {
            mismatches.push(`${q.id}#${i}: ${result.rows.length} rows ${JSON.stringify(result.columns)}, expected ${expected.rows} ${JSON.stringify(expected.cols)}`);
          }
          JSON.stringify(result.rows); // JSON-safe, or this throws (BigInt)
        } catch (err) {
          mismatches.push(`${q.id}#${i}: ${(err as Error).message}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(executed).toBe(487);
    // The row counts are still checked for all but the 43 clock-dependent variants.
    expect(questions.flatMap((q) => q.gold_sql_variants).filter((sql) => READS_CLOCK.test(sql))).toHaveLength(43);
  }, 120_000);
});
