import { applyDecorators, createParamDecorator, type ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { UserRole } from '@aigis/contracts';

export const IS_PUBLIC = 'aigis:isPublic';
/** Routes open without a token: health and auth. Marked `x-public` in the OpenAPI document, which documents 401 for every other route. */
export const Public = () => applyDecorators(SetMetadata(IS_PUBLIC, true), ApiExtension('x-public', true));

export const ADMIN_ONLY = 'aigis:adminOnly';
/** Routes only an admin may call (others get 403). */
export const AdminOnly = () => SetMetadata(ADMIN_ONLY, true);

export interface AuthUser {
  id: string;
  email: string;
  role: UserRole;
  tokenId: string;
}

export interface AuthedRequest {
  user?: AuthUser;
}

/** The user the bearer token or session cookie belongs to (set by AuthGuard). */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  const request = ctx.switchToHttp().getRequest<AuthedRequest>();
  return request.user!;
});
