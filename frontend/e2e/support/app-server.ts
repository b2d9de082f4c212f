import { startAppProcess, type AppProcess } from '@aigis/test-support/app-process';
import { FRONTEND_DIST } from './paths';

export type AppServer = AppProcess;

/**
 * The real built app serving the built web app, on the embedded default: SQLite app storage, a generated
 * key and the generated demo store in a fresh DATA_DIR. Only what is passed in `env` configures it.
 */
export function startAppServer(env: Record<string, string> = {}): Promise<AppServer> {
  return startAppProcess({ FRONTEND_DIST, ...env });
}
