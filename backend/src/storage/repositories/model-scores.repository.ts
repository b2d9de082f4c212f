import crypto from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { AppDb } from '../database.js';
import type { ModelScoresTable } from '../schema.js';
import { APP_DB } from '../tokens.js';

export type ModelScoreRow = Omit<ModelScoresTable, 'id'>;

@Injectable()
export class ModelScoresRepository {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  async record(score: ModelScoreRow): Promise<void> {
    await this.db
      .insertInto('model_scores')
      .values({ id: crypto.randomUUID(), ...score })
      .execute();
  }

  /** The newest run of each model, keyed by the model's name in lower case (registry names are case-insensitive). */
  async latestPerModel(): Promise<Map<string, ModelScoreRow>> {
    const rows = await this.db
      .selectFrom('model_scores as s')
      .select(['s.model', 's.benchmark', 's.examples', 's.correct', 's.questions', 's.run_at'])
      .where('s.run_at', '=', (eb) => eb.selectFrom('model_scores as t').select((t) => t.fn.max('t.run_at').as('latest')).whereRef('t.model', '=', 's.model'))
      .orderBy('s.run_at', 'desc')
      .execute();
    const latest = new Map<string, ModelScoreRow>();
    for (const row of rows) {
      const key = row.model.toLowerCase();
      if (!latest.has(key)) latest.set(key, { ...row, correct: Number(row.correct), questions: Number(row.questions) });
    }
    return latest;
  }
}
