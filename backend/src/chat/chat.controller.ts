import { threadConnectionResponseSchema, threadDetailSchema, threadModelResponseSchema, threadStateSchema, threadSummarySchema } from '@aigis/contracts';
import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { z } from 'zod';
import { type AuthUser, CurrentUser } from '../common/auth.decorators.js';
import { Returns, ZodBody } from '../common/zod.js';
import {
  type ConfirmInput,
  confirmSchema,
  type CreateThreadInput,
  createThreadSchema,
  type MessageInput,
  messageSchema,
  setConnectionSchema,
  setModelSchema,
  type ThreadConnectionResponse,
  type ThreadDetail,
  type ThreadModelResponse,
  type ThreadState,
  type ThreadSummary,
  type UpdateThreadInput,
  updateThreadSchema,
} from '@aigis/contracts';
import { MessageStreamService } from './message-stream.service.js';
import { ThreadsService } from './threads.service.js';

@ApiTags('chat')
@ApiBearerAuth()
@Controller('chat')
export class ChatController {
  constructor(
    private readonly threads: ThreadsService,
    private readonly streams: MessageStreamService,
  ) {}

  @Returns(threadSummarySchema)
  @Post()
  create(@CurrentUser() user: AuthUser, @ZodBody(createThreadSchema) body: CreateThreadInput): Promise<ThreadSummary> {
    return this.threads.create(user.id, body);
  }

  @Returns(z.array(threadSummarySchema))
  @Get()
  list(@CurrentUser() user: AuthUser): Promise<ThreadSummary[]> {
    return this.threads.list(user.id);
  }

  @Returns(threadDetailSchema)
  @Get(':thread_id')
  detail(@CurrentUser() user: AuthUser, @Param('thread_id') threadId: string): Promise<ThreadDetail> {
    return this.threads.detail(user.id, threadId);
  }

  @Returns(threadSummarySchema)
  @Patch(':thread_id')
  rename(
    @CurrentUser() user: AuthUser,
    @Param('thread_id') threadId: string,
    @ZodBody(updateThreadSchema) body: UpdateThreadInput,
  ): Promise<ThreadSummary> {
    return this.threads.update(user.id, threadId, body);
  }

  @Delete(':thread_id')
  @HttpCode(204)
  delete(@CurrentUser() user: AuthUser, @Param('thread_id') threadId: string): Promise<void> {
    return this.threads.delete(user.id, threadId);
  }

  @Returns(threadModelResponseSchema)
  @Get(':thread_id/model')
  model(@CurrentUser() user: AuthUser, @Param('thread_id') threadId: string): Promise<ThreadModelResponse> {
    return this.threads.model(user.id, threadId);
  }

  @Returns(threadModelResponseSchema)
  @Post(':thread_id/model')
  @HttpCode(200)
  setModel(
    @CurrentUser() user: AuthUser,
    @Param('thread_id') threadId: string,
    @ZodBody(setModelSchema) body: z.infer<typeof setModelSchema>,
  ): Promise<ThreadModelResponse> {
    return this.threads.setModel(user.id, threadId, body.name);
  }

  @Returns(threadConnectionResponseSchema)
  @Post(':thread_id/connection')
  @HttpCode(200)
  setConnection(
    @CurrentUser() user: AuthUser,
    @Param('thread_id') threadId: string,
    @ZodBody(setConnectionSchema) body: z.infer<typeof setConnectionSchema>,
  ): Promise<ThreadConnectionResponse> {
    return this.threads.setConnection(user.id, threadId, body.connection_id);
  }

  @Returns(threadStateSchema)
  @Get(':thread_id/state')
  state(@CurrentUser() user: AuthUser, @Param('thread_id') threadId: string): Promise<ThreadState> {
    return this.threads.state(user.id, threadId);
  }

  /** Streams the answer as text/event-stream (chunk, tool_call, tool_result, end, error). */
  @Returns(z.string().describe('Server-sent events (contracts stream-events.ts): chunk, tool_call, tool_result, confirm_required, end, error.'), { contentType: 'text/event-stream' })
  @Post(':thread_id/message')
  @ApiProduces('text/event-stream')
  message(
    @CurrentUser() user: AuthUser,
    @Param('thread_id') threadId: string,
    @ZodBody(messageSchema) body: MessageInput,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.streams.stream(user.id, threadId, body.content, req, res);
  }

  /**
   * Approves (optionally edited SQL) or refuses the query waiting for review, then streams the rest of the turn
   * like /message. Nothing pending: 409 NO_PENDING_REVIEW; an edit the guard refuses: 400 SQL_REJECTED.
   */
  @Returns(z.string().describe('Server-sent events (contracts stream-events.ts): chunk, tool_call, tool_result, confirm_required, end, error.'), { contentType: 'text/event-stream' })
  @Post(':thread_id/confirm')
  @ApiProduces('text/event-stream')
  confirm(
    @CurrentUser() user: AuthUser,
    @Param('thread_id') threadId: string,
    @ZodBody(confirmSchema) body: ConfirmInput,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    return this.streams.confirm(user.id, threadId, body, req, res);
  }
}
