import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ConnectionsModule } from '../connections/connections.module.js';
import { AdminController } from './admin.controller.js';
import { AdminService } from './admin.service.js';
import { AuthController } from './auth.controller.js';
import { AuthHousekeeping } from './auth-housekeeping.js';
import { AuthGuard } from './auth.guard.js';
import { AuthService } from './auth.service.js';
import { LoginThrottle } from './login-throttle.js';
import { PasswordHasher } from './password-hasher.js';
import { RegistrationPolicy } from './registration-policy.js';

@Module({
  imports: [ConnectionsModule],
  controllers: [AuthController, AdminController],
  providers: [AuthService, AdminService, AuthHousekeeping, LoginThrottle, RegistrationPolicy, PasswordHasher, { provide: APP_GUARD, useClass: AuthGuard }],
  exports: [AuthService],
})
export class AuthModule {}
