import { Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Connection, ConnectionTestResult, QueryResponse, SchemaResponse, SqliteFilesResponse } from '@aigis/contracts';
import type { Request } from 'express';
import { z } from 'zod';
import { type AuthUser, CurrentUser } from '../common/auth.decorators.js';
import { ZodBody, ZodQuery } from '../common/zod.js';
import { abortSignalFor } from '../common/request-abort.js';
import { ReadOnlyExecutor } from '../query/read-only-executor.js';
import {
  type CreateConnectionInput,
  createConnectionSchema,
  type UpdateConnectionInput,
  updateConnectionSchema,
} from './connection-input.js';
import { ConnectionsService } from './connections.service.js';
import { SchemaService } from './schema.service.js';

const querySchema = z
  .object({
    sql: z.string().trim().min(1, 'must not be empty').max(100_000, 'must be at most 100,000 characters'),
    limit: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();

const schemaQuerySchema = z.object({ refresh: z.enum(['true', 'false', '1', '0']).optional() });

@ApiTags('connections')
@ApiBearerAuth()
@Controller('connections')
export class ConnectionsController {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly schemas: SchemaService,
    private readonly executor: ReadOnlyExecutor,
  ) {}

  @Get()
  list(@CurrentUser() user: AuthUser): Promise<Connection[]> {
    return this.connections.list(user.id);
  }

  @Post()
  create(@CurrentUser() user: AuthUser, @ZodBody(createConnectionSchema) body: CreateConnectionInput): Promise<Connection> {
    return this.connections.create(user.id, body);
  }

  /** SQLite files this user may point a connection at (relative to SQLITE_ROOT). */
  @Get('sqlite-files')
  sqliteFiles(@CurrentUser() user: AuthUser): Promise<SqliteFilesResponse> {
    return this.connections.sqliteFiles(user.id);
  }

  @Get(':id')
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<Connection> {
    return this.connections.get(user.id, id);
  }

  @Patch(':id')
  update(@CurrentUser() user: AuthUser, @Param('id') id: string, @ZodBody(updateConnectionSchema) body: UpdateConnectionInput): Promise<Connection> {
    return this.connections.update(user.id, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  delete(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.connections.delete(user.id, id);
  }

  @Post(':id/test')
  @HttpCode(200)
  test(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<ConnectionTestResult> {
    return this.connections.test(user.id, id);
  }

  @Get(':id/schema')
  schema(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @ZodQuery(schemaQuerySchema) query: z.infer<typeof schemaQuerySchema>,
  ): Promise<SchemaResponse> {
    return this.schemas.get(user.id, id, { refresh: query.refresh === 'true' || query.refresh === '1' });
  }

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
