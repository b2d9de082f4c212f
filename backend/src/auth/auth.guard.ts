import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError } from '../common/app-error.js';
import { ADMIN_ONLY, IS_PUBLIC, type AuthedRequest } from '../common/auth.decorators.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { AuthService } from './auth.service.js';
import { corsOrigins, hasTrustedOrigin, isStateChanging, readSessionCookie } from './session-cookie.js';

/**
 * Global: every route needs a live session unless marked @Public(). API clients send a bearer token;
 * the web app's httpOnly cookie is accepted too, but a state-changing request on the cookie must come
 * from our own origin (a browser attaches the cookie to requests other sites make it send).
 */
@Injectable()
export class AuthGuard implements CanActivate {
  private readonly allowedOrigins: string[];

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.allowedOrigins = corsOrigins(config.CORS_ORIGIN);
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const request = context.switchToHttp().getRequest<Request & AuthedRequest>();
    const header = request.headers.authorization;
    let token: string | null;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)$/i.exec(header);
      if (!match) throw new AppError('UNAUTHORIZED', 'The Authorization header must be `Bearer <token>`.');
      token = match[1];
    } else {
      token = readSessionCookie(request);
      if (token && isStateChanging(request) && !hasTrustedOrigin(request, this.allowedOrigins)) {
        throw new AppError('ORIGIN_REFUSED', 'This request did not come from the Aigis web app (its Origin is missing or foreign), so the session cookie is not accepted for it.');
      }
    }
    if (!token) throw new AppError('UNAUTHORIZED', 'Log in first: this route needs a session (the web app\'s cookie, or an `Authorization: Bearer <token>` header).');
    const user = await this.auth.authenticate(token);
    if (!user) throw new AppError('UNAUTHORIZED', 'Your session has expired or was logged out. Log in again.');
    request.user = user;
    if (this.reflector.getAllAndOverride<boolean>(ADMIN_ONLY, targets) && user.role !== 'admin') {
      throw new AppError('FORBIDDEN', 'Only an admin may do this.');
    }
    return true;
  }
}
