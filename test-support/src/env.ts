import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The repository root, from test-support/src (vitest) or test-support/dist (built). */
export const REPO_ROOT = path.resolve(here, '../..');
/** Real databases and benchmarks, read-only, beside the repository (never copied into it). */
export const SHARED_DATA = process.env.SHARED_DATA ?? path.resolve(REPO_ROOT, '../shared/data');

/** Admin URLs of the machine's services; tests create and drop their own databases through them. */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DATA, ...parts);
}

/** What server-mode tests allow user connections to reach (server mode refuses this machine by default). */
export const TEST_ALLOW_HOSTS = '127.0.0.0/8,::1,localhost';
