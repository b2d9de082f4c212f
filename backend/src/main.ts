import 'reflect-metadata';
import { createApp } from './app.factory.js';
import { ConfigError, loadConfig } from './config/env.schema.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const app = await createApp(config);
  await app.listen(config.PORT, config.HOST);
  const shown = config.HOST === '0.0.0.0' ? 'localhost' : config.HOST;
  console.log(`Aigis is running at http://${shown}:${config.PORT} (API docs: /api/docs; storage: ${config.mode === 'server' ? 'PostgreSQL' : `SQLite in ${config.dataDir}`})`);
}

main().catch((error) => {
  console.error('Aigis failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
