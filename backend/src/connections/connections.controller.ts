import { connectionSchema, connectionTestResultSchema, schemaResponseSchema, sqliteFilesResponseSchema } from '@aigis/contracts';
import { Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  type Connection,
  type ConnectionTestResult,
  type CreateConnectionInput,
  type SchemaResponse,
  schemaQuerySchema,
  type SqliteFilesResponse,
  type UpdateConnectionInput,
} from '@aigis/contracts';
import { z } from 'zod';
import { type AuthUser, CurrentUser } from '../common/auth.decorators.js';
import { Returns, ZodBody, ZodQuery } from '../common/zod.js';
import { createConnectionBody, updateConnectionBody } from './connection-input.js';
import { ConnectionsService } from './connections.service.js';
import { SchemaService } from './schema.service.js';

@ApiTags('connections')
@ApiBearerAuth()
@Controller('connections')
export class ConnectionsController {
  constructor(
    private readonly connections: ConnectionsService,
    private readonly schemas: SchemaService,
  ) {}

  @Returns(z.array(connectionSchema))
  @Get()
  list(@CurrentUser() user: AuthUser): Promise<Connection[]> {
    return this.connections.list(user.id);
  }

  @Returns(connectionSchema)
  @Post()
  create(@CurrentUser() user: AuthUser, @ZodBody(createConnectionBody) body: CreateConnectionInput): Promise<Connection> {
    return this.connections.create(user.id, body);
  }

  /** SQLite files this user may point a connection at (relative to SQLITE_ROOT). */
  @Returns(sqliteFilesResponseSchema)
  @Get('sqlite-files')
  sqliteFiles(@CurrentUser() user: AuthUser): Promise<SqliteFilesResponse> {
    return this.connections.sqliteFiles(user.id);
  }

  @Returns(connectionSchema)
  @Get(':id')
  get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<Connection> {
    return this.connections.get(user.id, id);
  }

  @Returns(connectionSchema)
  @Patch(':id')
  update(@CurrentUser() user: AuthUser, @Param('id') id: string, @ZodBody(updateConnectionBody) body: UpdateConnectionInput): Promise<Connection> {
    return this.connections.update(user.id, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  delete(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.connections.delete(user.id, id);
  }

  @Returns(connectionTestResultSchema)
  @Post(':id/test')
  @HttpCode(200)
  test(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<ConnectionTestResult> {
    return this.connections.test(user.id, id);
  }

  @Returns(schemaResponseSchema)
  @Get(':id/schema')
  schema(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @ZodQuery(schemaQuerySchema) query: z.infer<typeof schemaQuerySchema>,
  ): Promise<SchemaResponse> {
    return this.schemas.get(user.id, id, { refresh: query.refresh === 'true' || query.refresh === '1' });
  }
}
