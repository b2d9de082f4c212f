import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

export const REPO_ROOT = path.resolve(here, '../../..');
export const FRONTEND_DIST = path.join(REPO_ROOT, 'frontend/dist');
export const BACKEND_MAIN = path.join(REPO_ROOT, 'backend/dist/src/main.js');
/** Screenshots of the main screens (gitignored); look at them after a run. */
export const ARTIFACTS = path.join(REPO_ROOT, 'frontend/test-artifacts');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
