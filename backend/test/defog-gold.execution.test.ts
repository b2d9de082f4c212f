import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapter } from '../src/connections/dialects/index.js';
import type { DialectAdapter } from '../src/connections/dialects/dialect-adapter.js';
import { ParserSqlGuard } from '../src/sql-guard/parser-sql-guard.js';
import { sharedPath } from './support/env.js';
import { createPgDefogDatabases, DEFOG_DATABASES, type DefogDatabase, type PgDatabase } from './support/fixtures.js';

interface GoldQuestion {
  id: string;
  db: DefogDatabase;
  gold_sql_variants: string[];
  pg15_execution: { ok: boolean; rows: number; cols: string[] }[];
}

const gold: GoldQuestion[] = fs
  .readFileSync(sharedPath('benchmarks/defog_sql_eval/postgres_gold_verified.jsonl'), 'utf8')
  .split('\n')
  .filter((line) => line.trim())
  .map((line) => JSON.parse(line));

/**
 * Every verified PostgreSQL gold query of defog sql-eval runs through all layers of read-only
 * execution (guard → read-only transaction with timeout → row cap) on the real databases, and
 * returns what PostgreSQL returned when the corpus was verified.
 */
describe('defog sql-eval gold queries on PostgreSQL', () => {
  const guard = new ParserSqlGuard();
  let databases: Record<DefogDatabase, PgDatabase>;
  const adapters = new Map<DefogDatabase, DialectAdapter>();

  beforeAll(async () => {
    databases = await createPgDefogDatabases();
    for (const name of DEFOG_DATABASES) adapters.set(name, createAdapter(databases[name].target(), { connectTimeoutMs: 5000, poolMax: 4 }));
  }, 180_000);

  afterAll(async () => {
    for (const adapter of adapters.values()) await adapter.close();
    await Promise.all(Object.values(databases ?? {}).map((db) => db.drop()));
  });

  it('has the 487 variants of 314 questions', () => {
    expect(gold).toHaveLength(314);
    expect(gold.reduce((n, q) => n + q.gold_sql_variants.length, 0)).toBe(487);
  });

  it('accepts and executes every variant, with the verified columns and row counts', async () => {
    const failures: string[] = [];
    let executed = 0;
    for (const question of gold) {
      for (const [i, sql] of question.gold_sql_variants.entries()) {
        const verdict = await guard.check('postgres', sql);
        if (!verdict.ok) {
          failures.push(`${question.id}#${i}: rejected: ${verdict.reason}`);
          continue;
        }
        try {
          const result = await adapters.get(question.db)!.executeReadOnly(verdict.sql, { maxRows: 100_000, timeoutMs: 30_000 });
          executed++;
          const expected = question.pg15_execution[i];
          if (result.columns.join(',') !== expected.cols.join(',')) failures.push(`${question.id}#${i}: columns ${result.columns} ≠ ${expected.cols}`);
          else if (result.rows.length !== expected.rows) failures.push(`${question.id}#${i}: ${result.rows.length} rows ≠ ${expected.rows}`);
          expect(result.truncated).toBe(false);
        } catch (error) {
          failures.push(`${question.id}#${i}: ${(error as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(executed).toBe(487);
  }, 300_000);
});
