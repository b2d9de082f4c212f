import 'reflect-metadata';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp } from '../../src/app.factory.js';
import { type AppConfig, loadConfig } from '../../src/config/env.schema.js';
import { TEST_ALLOW_HOSTS } from '@aigis/test-support/env';

export interface TestApp {
  url: string;
  config: AppConfig;
  app: NestExpressApplication;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * The real app on a random port with its own DATA_DIR (a temp dir, removed on close) unless given.
 * `env` overrides the defaults (`REGISTRATION: undefined` restores the mode's default); nothing is read from the surrounding process environment except
 * what is passed, so a developer's .env cannot change what tests see.
 */
export async function startTestApp(env: Record<string, string | undefined> = {}): Promise<TestApp> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-test-'));
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DEMO_DATABASE: 'false',
    PORT: '0',
    HOST: '127.0.0.1',
    NODE_ENV: 'test',
    // Server mode refuses loopback targets unless allowed; the test databases live on this machine.
    ...(env.DATABASE_URL && env.CONNECTION_ALLOW_HOSTS === undefined ? { CONNECTION_ALLOW_HOSTS: TEST_ALLOW_HOSTS } : {}),
    // Tests register many accounts from one address, in both storages; the tests of these settings pass their own.
    REGISTRATION: 'open',
    REGISTRATIONS_PER_HOUR: '100000',
    ...env,
    DATA_DIR: dataDir,
  });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    config,
    app,
    dataDir,
    async close() {
      await app.close();
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
