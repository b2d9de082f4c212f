import { Controller, Get, HttpCode, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthResponse, User } from '@aigis/contracts';
import type { Request } from 'express';
import { type AuthUser, CurrentUser, Public } from '../common/auth.decorators.js';
import { ZodBody } from '../common/zod.js';
import { DemoConnectionService } from '../connections/demo-connection.service.js';
import { type Credentials, credentialsSchema } from './auth.schemas.js';
import { AuthService } from './auth.service.js';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly demo: DemoConnectionService,
  ) {}

  @Public()
  @Post('register')
  async register(@ZodBody(credentialsSchema) body: Credentials): Promise<AuthResponse> {
    const result = await this.auth.register(body);
    await this.demo.provisionFor(result.user.id);
    return result;
  }

  @Public()
  @Post('login')
  @HttpCode(200)
  login(@ZodBody(credentialsSchema) body: Credentials, @Req() request: Request): Promise<AuthResponse> {
    return this.auth.login(body, request.ip ?? 'unknown');
  }

  @ApiBearerAuth()
  @Get('me')
  me(@CurrentUser() user: AuthUser): Promise<User> {
    return this.auth.me(user);
  }

  @ApiBearerAuth()
  @Post('logout')
  @HttpCode(204)
  logout(@CurrentUser() user: AuthUser): Promise<void> {
    return this.auth.logout(user);
  }
}
