import { loginResponseSchema, registerResponseSchema, registrationInfoSchema, sessionStatusSchema, userSchema } from '@aigis/contracts';
import { Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthResponse, RegisterResponse, RegistrationInfo, SessionResponse, SessionStatus, User } from '@aigis/contracts';
import type { Request, Response } from 'express';
import { AppError } from '../common/app-error.js';
import { type AuthUser, CurrentUser, Public } from '../common/auth.decorators.js';
import { Returns, ZodBody } from '../common/zod.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { DemoConnectionService } from '../connections/demo-connection.service.js';
import { type LoginInput, loginSchema, type RegisterInput, registerSchema } from '@aigis/contracts';
import { AuthService } from './auth.service.js';
import { clientKey } from './client-address.js';
import { clearSessionCookie, corsOrigins, hasTrustedOrigin, readSessionCookie, setSessionCookie } from './session-cookie.js';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly demo: DemoConnectionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** What the sign-up screen should offer (open, invite-only or closed). */
  @Public()
  @Returns(registrationInfoSchema)
  @Get('registration')
  registration(): Promise<RegistrationInfo> {
    return this.auth.registrationInfo();
  }

  /** 202 whether or not the email already had an account; the client then logs in. */
  @Public()
  @Returns(registerResponseSchema)
  @Post('register')
  @HttpCode(202)
  async register(@ZodBody(registerSchema) body: RegisterInput, @Req() request: Request): Promise<RegisterResponse> {
    const created = await this.auth.register(body, clientKey(request.ip));
    if (created) await this.demo.provisionFor(created);
    return { status: 'ok' };
  }

  @Public()
  @Returns(loginResponseSchema)
  @Post('login')
  @HttpCode(200)
  async login(
    @ZodBody(loginSchema) body: LoginInput,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<AuthResponse | SessionResponse> {
    // A cookie session may only be started by our own pages (no login CSRF into another account).
    if (body.session === 'cookie' && !hasTrustedOrigin(request, corsOrigins(this.config.CORS_ORIGIN))) {
      throw new AppError('ORIGIN_REFUSED', 'A cookie session can only be started from the Aigis web app.');
    }
    const result = await this.auth.login(body, clientKey(request.ip));
    if (body.session !== 'cookie') return result;
    setSessionCookie(request, response, result.token, this.auth.tokenTtlMs());
    return { user: result.user };
  }

  /**
   * Whether this browser is signed in, answered 200 either way: the web app asks at start, and its
   * cookie is invisible to scripts (a 401 here would be an error in every signed-out console).
   */
  @Public()
  @Returns(sessionStatusSchema)
  @Get('session')
  async session(@Req() request: Request): Promise<SessionStatus> {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
    const token = bearer?.[1] ?? readSessionCookie(request);
    const user = token ? await this.auth.authenticate(token) : null;
    return { user: user ? this.auth.me(user) : null };
  }

  @ApiBearerAuth()
  @Returns(userSchema)
  @Get('me')
  me(@CurrentUser() user: AuthUser): User {
    return this.auth.me(user);
  }

  /** Revokes the token (bearer or cookie) and expires the cookie. */
  @ApiBearerAuth()
  @Post('logout')
  @HttpCode(204)
  async logout(@CurrentUser() user: AuthUser, @Req() request: Request, @Res({ passthrough: true }) response: Response): Promise<void> {
    await this.auth.logout(user);
    clearSessionCookie(request, response);
  }
}
