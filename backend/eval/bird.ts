import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { sharedPath } from '@aigis/test-support/env';
import { spreadAcrossDatabases, type EvalQuestion, type PreparedBenchmark } from './benchmark.js';

const entry = z.object({
  question_id: z.number().int(),
  db_id: z.string().regex(/^[a-z0-9_]+$/),
  question: z.string().min(1),
  evidence: z.string().default(''),
  SQL: z.string().min(1),
  difficulty: z.string().default('unknown'),
});

/** BIRD mini-dev's 500 questions with their SQLite gold (../shared/data); `evidence` travels as the instructions. */
export function birdQuestions(): EvalQuestion[] {
  const raw = JSON.parse(fs.readFileSync(sharedPath('benchmarks/bird_minidev/mini_dev_sqlite.json'), 'utf8')) as unknown[];
  return raw.map((item) => {
    const q = entry.parse(item);
    return { id: `bird:${q.question_id}`, db: q.db_id, category: q.difficulty, question: q.question, instructions: q.evidence, gold: [q.SQL] };
  });
}

export const BIRD_MISSING = `BIRD mini-dev's databases are not in ../shared/data (only its questions and annotated DDL are).
Download them (the mini-dev archive's dev_databases folder: <db_id>/<db_id>.sqlite) and pass --bird-dir <that folder>.`;

/**
 * BIRD on SQLite: the app reads the databases as SQLite connections under SQLITE_ROOT = the given folder (the
 * harness's account is its instance's first, an admin, so every file under the root is allowed).
 */
export async function prepareBird(limit: number | undefined, birdDir: string | undefined): Promise<PreparedBenchmark> {
  if (!birdDir) throw new Error(BIRD_MISSING);
  const root = path.resolve(birdDir);
  const all = birdQuestions();
  const questions = spreadAcrossDatabases(all, limit);
  const connections: Record<string, Record<string, unknown>> = {};
  const missing: string[] = [];
  for (const db of new Set(questions.map((q) => q.db))) {
    const file = path.join(db, `${db}.sqlite`);
    if (!fs.existsSync(path.join(root, file))) missing.push(path.join(root, file));
    connections[db] = { name: `bird ${db}`, dialect: 'sqlite', database: file };
  }
  if (missing.length) throw new Error(`${BIRD_MISSING}\nMissing: ${missing.join(', ')}`);
  const pool = all.filter((q) => q.db in connections);
  return { name: 'bird', family: 'sqlite', questions, pool, connections, appEnv: { SQLITE_ROOT: root }, close: async () => undefined };
}
