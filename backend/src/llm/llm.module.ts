import { Module } from '@nestjs/common';
import { ModelRegistry } from './model-registry.js';

/** The model registry; APP_CONFIG comes from the global ConfigModule. */
@Module({
  providers: [ModelRegistry],
  exports: [ModelRegistry],
})
export class LlmModule {}
