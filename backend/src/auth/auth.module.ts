import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConnectionsModule } from '../connections/connections.module.js';
import { AuthController } from './auth.controller.js';
import { AuthGuard } from './auth.guard.js';
import { AuthService } from './auth.service.js';
import { PasswordHasher } from './password-hasher.js';

@Module({
  imports: [ConnectionsModule],
  controllers: [AuthController],
  providers: [AuthService, PasswordHasher, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [AuthService],
})
export class AuthModule {}
