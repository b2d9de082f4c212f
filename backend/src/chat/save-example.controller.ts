import { exampleQuerySchema } from '@aigis/contracts';
import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { ExampleQuery } from '@aigis/contracts';
import type { Request } from 'express';
import { type AuthUser, CurrentUser } from '../common/auth.decorators.js';
import { abortSignalFor } from '../common/request-abort.js';
import { Returns, ZodBody } from '../common/zod.js';
import { type SaveAnswerInput, saveAnswerSchema } from '@aigis/contracts';
import { SaveExampleService } from './save-example.service.js';

/** Beside the knowledge routes, but here: it reads a thread's answers, which the chat module owns. */
@ApiTags('knowledge')
@ApiBearerAuth()
@Controller('connections/:id/knowledge/examples')
export class SaveExampleController {
  constructor(private readonly saver: SaveExampleService) {}

  /** "Save as example": `{thread_id, message_id, question?}` → the verified example (201). */
  @Returns(exampleQuerySchema)
  @Post('from-answer')
  @HttpCode(201)
  fromAnswer(@CurrentUser() user: AuthUser, @Param('id') id: string, @ZodBody(saveAnswerSchema) body: SaveAnswerInput, @Req() request: Request): Promise<ExampleQuery> {
    return this.saver.save(user.id, id, body, abortSignalFor(request));
  }
}
