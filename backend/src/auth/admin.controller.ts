import { z } from 'zod';
import { adminUserSchema, createdInviteSchema, instanceSettingsSchema, inviteSchema, sqliteGrantSchema } from '@aigis/contracts';
import { Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { AdminOnly, type AuthUser, CurrentUser } from '../common/auth.decorators.js';
import { Returns, ZodBody } from '../common/zod.js';
import { AdminService } from './admin.service.js';
import {
  type AdminUser,
  type CreatedInvite,
  type CreateGrantInput,
  createGrantSchema,
  type CreateInviteInput,
  createInviteSchema,
  type InstanceSettings,
  type Invite,
  type SqliteGrant,
  type UpdateSettingsInput,
  updateSettingsSchema,
  type UpdateUserInput,
  updateUserSchema,
} from '@aigis/contracts';

@ApiTags('admin')
@ApiBearerAuth()
@AdminOnly()
@Controller('admin')
export class AdminController {
  constructor(private readonly admin: AdminService) {}

  @Returns(z.array(adminUserSchema))
  @Get('users')
  users(): Promise<AdminUser[]> {
    return this.admin.listUsers();
  }

  @Returns(adminUserSchema)
  @Patch('users/:id')
  updateUser(@CurrentUser() actor: AuthUser, @Param('id') id: string, @ZodBody(updateUserSchema) body: UpdateUserInput): Promise<AdminUser> {
    return this.admin.updateUser(actor, id, body);
  }

  @Returns(z.array(inviteSchema))
  @Get('invites')
  invites(): Promise<Invite[]> {
    return this.admin.listInvites();
  }

  @Returns(createdInviteSchema)
  @Post('invites')
  createInvite(@CurrentUser() actor: AuthUser, @ZodBody(createInviteSchema) body: CreateInviteInput): Promise<CreatedInvite> {
    return this.admin.createInvite(actor, body);
  }

  @Delete('invites/:id')
  @HttpCode(204)
  revokeInvite(@Param('id') id: string): Promise<void> {
    return this.admin.revokeInvite(id);
  }

  @Returns(instanceSettingsSchema)
  @Get('settings')
  settings(): Promise<InstanceSettings> {
    return this.admin.settings();
  }

  @Returns(instanceSettingsSchema)
  @Patch('settings')
  updateSettings(@ZodBody(updateSettingsSchema) body: UpdateSettingsInput): Promise<InstanceSettings> {
    return this.admin.setRegistration(body.registration);
  }

  @Returns(z.array(sqliteGrantSchema))
  @Get('sqlite-grants')
  grants(): Promise<SqliteGrant[]> {
    return this.admin.listGrants();
  }

  @Returns(sqliteGrantSchema)
  @Post('sqlite-grants')
  createGrant(@CurrentUser() actor: AuthUser, @ZodBody(createGrantSchema) body: CreateGrantInput): Promise<SqliteGrant> {
    return this.admin.createGrant(actor, body);
  }

  @Delete('sqlite-grants/:id')
  @HttpCode(204)
  deleteGrant(@Param('id') id: string): Promise<void> {
    return this.admin.deleteGrant(id);
  }
}
