import type { ApiClient } from '../test/support/api-client.js';
import { foldsOf, type PreparedBenchmark } from './benchmark.js';

/** The connections of a run: per database one per fold when examples are used (see foldsOf), else one for both. */
export interface EvalConnections {
  /** The connection a question is asked on. */
  forQuestion(questionId: string, db: string): string;
  /** Example queries the API accepted, and those it refused (with why). */
  examples: { added: number; rejected: string[] };
}

const MAX_REJECTIONS_KEPT = 50;

/**
 * Creates the benchmark's connections through the API (review off: nothing waits for a person). With examples,
 * each database gets two connections, and each is given the other fold's gold queries as example queries
 * (POST /api/connections/:id/knowledge/examples, which runs each one before keeping it).
 */
export async function createEvalConnections(api: ApiClient, benchmark: PreparedBenchmark, withExamples: boolean): Promise<EvalConnections> {
  const folds = foldsOf(benchmark.pool);
  const ids: Record<string, [string, string]> = {};
  const examples = { added: 0, rejected: [] as string[] };
  for (const [db, body] of Object.entries(benchmark.connections)) {
    const create = async (label: string) => {
      const created = await api.post('/api/connections', { ...body, name: `${String(body.name)}${label}`, review: 'never' });
      if (created.status !== 201) throw new Error(`could not connect to ${db}: HTTP ${created.status} ${JSON.stringify(created.body)}`);
      return String(created.body.id);
    };
    if (!withExamples) {
      const id = await create('');
      ids[db] = [id, id];
      continue;
    }
    ids[db] = [await create(' (fold 1)'), await create(' (fold 2)')];
    for (const q of benchmark.pool.filter((p) => p.db === db)) {
      // A question of fold k is an example on the other fold's connection.
      const target = ids[db]![1 - folds.get(q.id)!]!;
      const added = await api.post(`/api/connections/${target}/knowledge/examples`, { question: q.question, sql: q.gold[0] });
      if (added.status === 201 || added.status === 200) examples.added++;
      else if (added.status === 404 && examples.added === 0) throw new Error('this build has no knowledge examples API (POST /api/connections/:id/knowledge/examples): run with --examples off');
      else if (examples.rejected.length < MAX_REJECTIONS_KEPT) examples.rejected.push(`${q.id}: HTTP ${added.status} ${JSON.stringify(added.body).slice(0, 200)}`);
    }
  }
  return {
    forQuestion: (questionId, db) => ids[db]![folds.get(questionId) ?? 0]!,
    examples,
  };
}
