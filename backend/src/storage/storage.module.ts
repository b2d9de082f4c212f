import { Global, Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { fixAppFileModes } from '../config/app-files.js';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { createAppDb, migrateToLatest, type AppDb } from './database.js';
import { AuthTokensRepository } from './repositories/auth-tokens.repository.js';
import { InstanceSettingsRepository } from './repositories/instance-settings.repository.js';
import { InvitesRepository } from './repositories/invites.repository.js';
import { KnowledgeStore } from './repositories/knowledge/knowledge-store.js';
import { ConnectionsRepository } from './repositories/connections.repository.js';
import { ModelScoresRepository } from './repositories/model-scores.repository.js';
import { LoginFailuresRepository } from './repositories/login-failures.repository.js';
import { QueryAuditRepository } from './repositories/query-audit.repository.js';
import { ReviewDecisionsRepository } from './repositories/review-decisions.repository.js';
import { ThreadTurnsRepository } from './repositories/thread-turns.repository.js';
import { RegistrationAttemptsRepository } from './repositories/registration-attempts.repository.js';
import { SqliteGrantsRepository } from './repositories/sqlite-grants.repository.js';
import { ThreadsRepository } from './repositories/threads.repository.js';
import { UsersRepository } from './repositories/users.repository.js';
import { APP_DB } from './tokens.js';

const repositories = [
  UsersRepository,
  AuthTokensRepository,
  LoginFailuresRepository,
  ConnectionsRepository,
  ThreadsRepository,
  ThreadTurnsRepository,
  QueryAuditRepository,
  ReviewDecisionsRepository,
  InvitesRepository,
  InstanceSettingsRepository,
  SqliteGrantsRepository,
  RegistrationAttemptsRepository,
  KnowledgeStore,
  ModelScoresRepository,
];

@Global()
@Module({
  providers: [
    {
      provide: APP_DB,
      inject: [APP_CONFIG],
      // Migrations run before anything can use the database.
      useFactory: async (config: AppConfig): Promise<AppDb> => {
        const db = createAppDb(config);
        await migrateToLatest(db);
        // Files written by an older version (or before the -wal existed) are made private at every start.
        if (config.mode === 'embedded') fixAppFileModes(config);
        return db;
      },
    },
    ...repositories,
  ],
  exports: [APP_DB, ...repositories],
})
export class StorageModule implements OnApplicationShutdown {
  constructor(@Inject(APP_DB) private readonly db: AppDb) {}

  async onApplicationShutdown(): Promise<void> {
    await this.db.destroy();
  }
}
