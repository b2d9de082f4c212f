import { loadConfig } from '../src/config/env.schema.js';
import { createAppDb, migrateToLatest } from '../src/storage/database.js';
import { ModelScoresRepository } from '../src/storage/repositories/model-scores.repository.js';
import type { EvalReport } from './report.js';

/**
 * Stores each run's score in the app storage the environment configures (DATA_DIR, or DATABASE_URL in server
 * mode): the same storage `npm start` uses, so its GET /api/models shows the model's last score.
 */
export async function storeScores(report: EvalReport, env: NodeJS.ProcessEnv): Promise<void> {
  const db = createAppDb(loadConfig(env));
  try {
    await migrateToLatest(db);
    const scores = new ModelScoresRepository(db);
    for (const run of report.runs) {
      await scores.record({
        model: report.model,
        benchmark: report.benchmark,
        examples: run.examples,
        correct: run.summary.correct,
        questions: run.summary.questions,
        run_at: run.finished_at,
      });
    }
  } finally {
    await db.destroy();
  }
}
