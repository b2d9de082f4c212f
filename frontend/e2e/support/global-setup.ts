import fs from 'node:fs';
import path from 'node:path';
import { ARTIFACTS, BACKEND_MAIN, CHROMIUM, FRONTEND_DIST, REPO_ROOT } from './paths';
import { SHARED_DATA } from '@aigis/test-support/env';

/**
 * The browser tests drive the built app, not the sources: fail at once, saying what to run,
 * when a build or a dependency is missing, instead of timing out in the first test.
 */
export default function setup(): void {
  const problems: string[] = [];
  const rel = (p: string) => path.relative(REPO_ROOT, p);
  if (!fs.existsSync(BACKEND_MAIN)) problems.push(`${rel(BACKEND_MAIN)} is missing: run \`npm run build\``);
  if (!fs.existsSync(path.join(FRONTEND_DIST, 'index.html'))) problems.push(`${rel(FRONTEND_DIST)}/index.html is missing: run \`npm run build -w frontend\``);
  if (!fs.existsSync(CHROMIUM)) problems.push(`Chromium is not at ${CHROMIUM}: \`apt-get install -y chromium\` (or set CHROMIUM_PATH)`);
  if (!fs.existsSync(SHARED_DATA)) problems.push(`test data not found at ${SHARED_DATA} (Chinook): clone next to ../shared or set SHARED_DATA`);
  if (problems.length) {
    throw new Error(`Browser end-to-end tests cannot run (or run \`npm test\` at the root, which builds first):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
  const stale = staleBuild();
  if (stale) console.warn(`[e2e] warning: ${stale} is newer than the build; the tests run the last build (\`npm run build\` to refresh it).`);
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  // Failure screenshots of an earlier run would mislead.
  for (const file of fs.readdirSync(ARTIFACTS)) if (file.startsWith('FAILED-')) fs.rmSync(path.join(ARTIFACTS, file));
}

/** A source file changed after the build the tests are about to run, if any (a warning, not an error). */
function staleBuild(): string | null {
  const builds: [string, string[]][] = [
    [BACKEND_MAIN, ['backend/src', 'contracts/src']],
    [path.join(FRONTEND_DIST, 'index.html'), ['frontend/src', 'contracts/src']],
  ];
  for (const [output, sources] of builds) {
    const built = fs.statSync(output).mtimeMs;
    for (const dir of sources) {
      const newer = newestFile(path.join(REPO_ROOT, dir), built);
      if (newer) return path.relative(REPO_ROOT, newer);
    }
  }
  return null;
}

function newestFile(dir: string, after: number): string | null {
  if (!fs.existsSync(dir)) return null;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = newestFile(full, after);
      if (found) return found;
    } else if (fs.statSync(full).mtimeMs > after) return full;
  }
  return null;
}
