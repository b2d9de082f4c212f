import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { AgentModule } from './agent/agent.module.js';
import { AuthModule } from './auth/auth.module.js';
import { ChatModule } from './chat/chat.module.js';
import { CommonModule } from './common/common.module.js';
import { AppExceptionFilter } from './exception.filter.js';
import { loggerParams } from './common/logging.js';
import { ConfigModule } from './config/config.module.js';
import type { AppConfig } from './config/env.schema.js';
import { ConnectionsModule } from './connections/connections.module.js';
import { CryptoModule } from './crypto/crypto.module.js';
import { KnowledgeModule } from './knowledge/knowledge.module.js';
import { LimitsModule } from './limits/limits.module.js';
import { LlmModule } from './llm/llm.module.js';
import { QueryModule } from './query/query.module.js';
import { StorageModule } from './storage/storage.module.js';

@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config),
        LoggerModule.forRoot(loggerParams(config)),
        CommonModule,
        LimitsModule,
        StorageModule,
        CryptoModule,
        ConnectionsModule,
        QueryModule,
        LlmModule,
        AgentModule,
        KnowledgeModule,
        AuthModule,
        ChatModule,
      ],
      providers: [{ provide: APP_FILTER, useClass: AppExceptionFilter }],
    };
  }
}
