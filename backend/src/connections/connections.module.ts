import { Inject, Module, type OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { AdapterCache } from './adapter-cache.js';
import { ConnectionsController } from './connections.controller.js';
import { ConnectionsService } from './connections.service.js';
import { DemoConnectionService } from './demo-connection.service.js';
import { SchemaService } from './schema.service.js';
import { HostResolver } from './reach/host-resolver.js';
import { storageServerOf, TargetPolicy } from './reach/target-policy.js';
import { SqliteAccess } from './sqlite-access.service.js';
import { ViewPolicy } from './view-policy.service.js';

@Module({
  controllers: [ConnectionsController],
  providers: [
    {
      provide: AdapterCache,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => new AdapterCache({ maxEntries: config.POOL_CACHE_MAX, idleMs: config.POOL_IDLE_MS }),
    },
    HostResolver,
    {
      provide: TargetPolicy,
      inject: [APP_CONFIG, HostResolver],
      useFactory: (config: AppConfig, resolver: HostResolver) =>
        new TargetPolicy({
          mode: config.mode,
          allow: config.CONNECTION_ALLOW_HOSTS,
          deny: config.CONNECTION_DENY_HOSTS,
          storage: storageServerOf(config.DATABASE_URL),
          lookup: (host) => resolver.lookup(host),
        }),
    },
    ConnectionsService,
    SchemaService,
    DemoConnectionService,
    SqliteAccess,
    ViewPolicy,
  ],
  exports: [TargetPolicy, HostResolver, ConnectionsService, SchemaService, DemoConnectionService, SqliteAccess, ViewPolicy],
})
export class ConnectionsModule implements OnApplicationShutdown {
  constructor(@Inject(AdapterCache) private readonly adapters: AdapterCache) {}

  async onApplicationShutdown(): Promise<void> {
    await this.adapters.closeAll();
  }
}
