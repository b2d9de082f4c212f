import fs from 'node:fs';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module.js';
import type { AppConfig } from '../config/env.schema.js';
import { ensureDemoStore } from '../demo/demo-store.generator.js';
import { ConnectionsService } from './connections.service.js';
import { relativeToRoot } from './sqlite-files.js';

export const DEMO_CONNECTION_NAME = 'Demo store';

/** In the embedded default, every new account starts with a ready connection to the generated demo store. */
@Injectable()
export class DemoConnectionService implements OnModuleInit {
  private readonly logger = new Logger(DemoConnectionService.name);
  private demoFile: string | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connections: ConnectionsService,
  ) {}

  async onModuleInit(): Promise<void> {
    if (this.config.mode !== 'embedded' || !this.config.DEMO_DATABASE) return;
    try {
      fs.mkdirSync(this.config.sqliteRoot, { recursive: true });
      this.demoFile = ensureDemoStore(this.config.sqliteRoot);
    } catch (error) {
      // The product works without the demo; say why it is missing rather than refusing to start.
      this.logger.warn(`Demo store not available: ${(error as Error).message}`);
    }
  }

  async provisionFor(userId: string): Promise<void> {
    if (!this.demoFile || !fs.existsSync(this.demoFile)) return;
    await this.connections.create(
      userId,
      { name: DEMO_CONNECTION_NAME, dialect: 'sqlite', database: relativeToRoot(this.config.sqliteRoot, this.demoFile) },
      { isDemo: true },
    );
  }
}
