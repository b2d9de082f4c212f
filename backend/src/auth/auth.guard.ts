import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppError } from '../common/app-error.js';
import { IS_PUBLIC, type AuthedRequest } from '../common/auth.decorators.js';
import { AuthService } from './auth.service.js';

/** Global: every route needs a live bearer token unless marked @Public(). */
@Injectable()
export class AuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<Request & AuthedRequest>();
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw new AppError('UNAUTHORIZED', 'Log in first: this route needs an `Authorization: Bearer <token>` header.');
    const user = await this.auth.authenticate(match[1]);
    if (!user) throw new AppError('UNAUTHORIZED', 'Your session has expired or was logged out. Log in again.');
    request.user = user;
    return true;
  }
}
