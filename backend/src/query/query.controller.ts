import { queryResponseSchema } from '@aigis/contracts';
import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { type QueryResponse, querySchema } from '@aigis/contracts';
import type { Request } from 'express';
import type { z } from 'zod';
import { type AuthUser, CurrentUser } from '../common/auth.decorators.js';
import { abortSignalFor } from '../common/request-abort.js';
import { Returns, ZodBody } from '../common/zod.js';
import { ReadOnlyExecutor } from './read-only-executor.js';

/** POST /api/connections/:id/query: one statement through the read-only executor. */
@ApiTags('connections')
@ApiBearerAuth()
@Controller('connections')
export class QueryController {
  constructor(private readonly executor: ReadOnlyExecutor) {}

  @Returns(queryResponseSchema)
  @Post(':id/query')
  @HttpCode(200)
  query(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @ZodBody(querySchema) body: z.infer<typeof querySchema>,
    @Req() request: Request,
  ): Promise<QueryResponse> {
    return this.executor.run({ userId: user.id, connectionId: id, sql: body.sql, limit: body.limit, signal: abortSignalFor(request) });
  }
}
