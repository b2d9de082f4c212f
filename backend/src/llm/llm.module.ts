import { Module } from '@nestjs/common';
import { ModelRegistry } from './model-registry.js';
import { ModelsController } from './models.controller.js';

/** The model registry and its routes (GET /api/models…); APP_CONFIG comes from the global ConfigModule. */
@Module({
  controllers: [ModelsController],
  providers: [ModelRegistry],
  exports: [ModelRegistry],
})
export class LlmModule {}
