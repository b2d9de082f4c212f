import 'reflect-metadata';
import cluster from 'node:cluster';
import os from 'node:os';
import { createApp } from './app.factory.js';
import { type AppConfig, ConfigError, loadConfig } from './config/env.schema.js';
import { prepareDataDir } from './startup.js';

function config(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * A stray rejected promise (a driver callback, a closed socket) must not take every user's session
 * down with it: it is logged and the server goes on. An uncaught exception leaves the process in an
 * unknown state, so it is logged and the process exits (cluster mode starts a new worker).
 */
function guardProcess(): void {
  process.on('unhandledRejection', (reason) => {
    console.error(JSON.stringify({ level: 50, time: Date.now(), msg: 'Unhandled promise rejection', error: reason instanceof Error ? reason.stack : String(reason) }));
  });
  process.on('uncaughtException', (error) => {
    console.error(JSON.stringify({ level: 60, time: Date.now(), msg: 'Uncaught exception; exiting', error: error.stack ?? String(error) }));
    process.exit(1);
  });
}

async function serve(config: AppConfig): Promise<void> {
  const app = await createApp(config);
  await app.listen(config.PORT, config.HOST);
}

/**
 * One process by default. With WORKERS > 1 the primary does the one-time work (key, migrations,
 * demo store) and forks workers that share the port; each is stateless beyond its caches.
 */
async function main(): Promise<void> {
  guardProcess();
  const cfg = config();
  const workers = cfg.WORKERS === 'auto' ? os.availableParallelism() : cfg.WORKERS;
  const where = `http://${cfg.HOST === '0.0.0.0' ? 'localhost' : cfg.HOST}:${cfg.PORT}`;
  const storage = cfg.mode === 'server' ? 'PostgreSQL' : `SQLite in ${cfg.dataDir}`;
  if (workers <= 1) {
    await serve(cfg);
    console.log(`Aigis is running at ${where} (API docs: /api/docs; storage: ${storage})`);
    return;
  }
  if (cluster.isPrimary) {
    await prepareDataDir(cfg);
    let stopping = false;
    for (let i = 0; i < workers; i++) cluster.fork();
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      console.error(`Aigis worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
      cluster.fork();
    });
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      process.once(sig, () => {
        stopping = true;
        for (const worker of Object.values(cluster.workers ?? {})) worker?.kill(sig);
        setTimeout(() => process.exit(0), 10_000).unref();
        cluster.disconnect(() => process.exit(0));
      });
    }
    console.log(`Aigis is running at ${where} with ${workers} workers (API docs: /api/docs; storage: ${storage})`);
    return;
  }
  await serve(cfg);
}

main().catch((error) => {
  console.error('Aigis failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
