import { Global, Module } from '@nestjs/common';
import { Clock } from './clock.js';
import { HealthController } from './health.controller.js';

@Global()
@Module({ controllers: [HealthController], providers: [Clock], exports: [Clock] })
export class CommonModule {}
