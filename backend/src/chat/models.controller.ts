import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { ModelInfo, ProviderSetup } from '@aigis/contracts';
import { ModelRegistry } from '../llm/model-registry.js';

@ApiTags('models')
@ApiBearerAuth()
@Controller('models')
export class ModelsController {
  constructor(private readonly registry: ModelRegistry) {}

  /** Every model with its availability now (answered from cache; probes refresh in the background). */
  @Get()
  list(): ModelInfo[] {
    return this.registry.list();
  }

  /** Which environment variable enables which provider. */
  @Get('providers')
  providers(): ProviderSetup[] {
    return this.registry.providers();
  }
}
