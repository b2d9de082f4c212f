import { healthResponseSchema } from '@aigis/contracts';
import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Public } from './auth.decorators.js';
import { Returns } from './zod.js';

@ApiTags('health')
@Controller('health')
export class HealthController {
  @Public()
  @Returns(healthResponseSchema)
  @Get()
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }
}
