import path from 'node:path';
import { REPO_ROOT } from '@aigis/test-support/env';

export { BACKEND_MAIN } from '@aigis/test-support/app-process';
export { REPO_ROOT };
export const FRONTEND_DIST = path.join(REPO_ROOT, 'frontend/dist');
/** Screenshots of the main screens (gitignored); look at them after a run. */
export const ARTIFACTS = path.join(REPO_ROOT, 'frontend/test-artifacts');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
