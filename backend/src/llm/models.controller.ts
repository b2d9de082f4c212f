import { z } from 'zod';
import { modelInfoSchema, providerSetupSchema } from '@aigis/contracts';
import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Returns } from '../common/zod.js';
import type { ModelInfo, ModelScore, ProviderSetup } from '@aigis/contracts';
import { ModelRegistry } from './model-registry.js';
import { ModelScoresRepository, type ModelScoreRow } from '../storage/repositories/model-scores.repository.js';

@ApiTags('models')
@ApiBearerAuth()
@Controller('models')
export class ModelsController {
  constructor(
    private readonly registry: ModelRegistry,
    private readonly scores: ModelScoresRepository,
  ) {}

  /** Every model with its availability now (answered from cache; probes refresh in the background) and its last accuracy score. */
  @Returns(z.array(modelInfoSchema))
  @Get()
  async list(): Promise<ModelInfo[]> {
    const latest = await this.scores.latestPerModel();
    return this.registry.list().map((model) => ({ ...model, last_score: scoreOf(latest.get(model.name.toLowerCase())) }));
  }

  /** Which environment variable enables which provider. */
  @Returns(z.array(providerSetupSchema))
  @Get('providers')
  providers(): ProviderSetup[] {
    return this.registry.providers();
  }
}

function scoreOf(row: ModelScoreRow | undefined): ModelScore | null {
  if (!row || row.questions <= 0) return null;
  return {
    benchmark: row.benchmark,
    score: row.correct / row.questions,
    correct: row.correct,
    questions: row.questions,
    examples: row.examples === 'on' ? 'on' : 'off',
    date: row.run_at,
  };
}
