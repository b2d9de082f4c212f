import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

/** Every native file a package ships or built (build/Release and prebuilds for each platform). */
function nativeFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'deps' && entry.name !== 'src') found.push(...nativeFiles(full));
    else if (entry.isFile() && entry.name.endsWith('.node')) found.push(full);
  }
  return found;
}

/**
 * On Node 24 the API aborted under load with `node::RemoveEnvironmentCleanupHook … Assertion failed: (env)
 * != nullptr`: better-sqlite3 12's objects derive from node's C++ `ObjectWrap`, whose destructor (run by the
 * garbage collector, sometimes outside any JavaScript context) calls that function, which Node 24 asserts
 * on. better-sqlite3 13 is built on Node-API and no longer links against it. The abort depends on GC timing,
 * so this checks its cause instead: no SQLite binary we can load imports the function.
 */
describe('native addons on Node 24', () => {
  const packageDir = path.dirname(require.resolve('better-sqlite3/package.json'));

  it('better-sqlite3 is a Node-API build that does not call node::RemoveEnvironmentCleanupHook', () => {
    const files = nativeFiles(packageDir);
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const binary = fs.readFileSync(file);
      expect({ file, importsCleanupHook: binary.includes('RemoveEnvironmentCleanupHook') }).toEqual({ file, importsCleanupHook: false });
    }
  });

  it('the binary the process actually loads is one of them, and works', () => {
    const Database = require('better-sqlite3');
    const db = new Database(':memory:');
    for (let i = 0; i < 2000; i++) db.prepare('SELECT ? AS n').get(i);
    expect(db.prepare('SELECT 41 + 1 AS n').get()).toEqual({ n: 42 });
    db.close();
    if (process.platform === 'linux') {
      const mapped = fs
        .readFileSync('/proc/self/maps', 'utf8')
        .split('\n')
        .map((line) => line.slice(line.indexOf('/')))
        .filter((file) => file.startsWith(packageDir) && file.endsWith('.node'));
      expect(mapped.length).toBeGreaterThan(0);
      for (const file of new Set(mapped)) expect(fs.readFileSync(file).includes('RemoveEnvironmentCleanupHook')).toBe(false);
    }
  });
});
