import { Global, Module } from '@nestjs/common';
import { UserLimits } from './user-limits.service.js';

@Global()
@Module({ providers: [UserLimits], exports: [UserLimits] })
export class LimitsModule {}
