import fs from 'node:fs';
import { z } from 'zod';
import { sharedPath, TEST_PG_URL } from '@aigis/test-support/env';
import { createPgDatabase, DEFOG_DATABASES, loadPgDefog, type DefogDatabase, type PgDatabase } from '../test/support/fixtures.js';
import { spreadAcrossDatabases, type EvalQuestion, type PreparedBenchmark } from './benchmark.js';

const line = z.object({
  id: z.string(),
  db: z.enum(DEFOG_DATABASES),
  category: z.string(),
  question: z.string().min(1),
  instructions: z.string(),
  gold_sql_variants: z.array(z.string().min(1)).min(1),
});

/** defog sql-eval on PostgreSQL: the 314 questions with their verified gold variants (../shared/data). */
export function defogQuestions(): EvalQuestion[] {
  const file = sharedPath('benchmarks/defog_sql_eval/postgres_gold_verified.jsonl');
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const q = line.parse(JSON.parse(l));
      return { id: q.id, db: q.db, category: q.category, question: q.question, instructions: q.instructions, gold: q.gold_sql_variants };
    });
}

/**
 * Loads the databases the chosen questions need into fresh PostgreSQL databases (`aigis_t_defog_<db>_…` on
 * TEST_PG_URL's server, dropped by close()).
 */
export async function prepareDefog(limit: number | undefined): Promise<PreparedBenchmark> {
  const all = defogQuestions();
  const questions = spreadAcrossDatabases(all, limit);
  const needed = [...new Set(questions.map((q) => q.db))] as DefogDatabase[];
  const created: PgDatabase[] = [];
  const connections: Record<string, Record<string, unknown>> = {};
  try {
    for (const name of needed) {
      const db = await createPgDatabase(`defog_${name}`);
      created.push(db);
      await loadPgDefog(db, name);
      const url = new URL(TEST_PG_URL);
      url.pathname = `/${db.name}`;
      connections[name] = { name: `defog ${name}`, url: url.toString() };
    }
  } catch (error) {
    await Promise.all(created.map((d) => d.drop()));
    throw error;
  }
  return {
    name: 'defog',
    family: 'sqlite',
    questions,
    pool: all.filter((q) => needed.includes(q.db as DefogDatabase)),
    connections,
    appEnv: {},
    close: async () => {
      await Promise.all(created.map((d) => d.drop()));
    },
  };
}
