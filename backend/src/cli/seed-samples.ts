import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportDemoStore } from '../demo/demo-store.export.js';
import { ensureDemoStore } from '../demo/demo-store.generator.js';

const USAGE = `Fills sample databases with the generated Demo store (used by docker-compose).
  node backend/dist/src/cli/seed-samples.js postgres://user:pw@host/db mysql://user:pw@host/db …`;

async function main(): Promise<void> {
  const urls = process.argv.slice(2);
  if (urls.length === 0 || urls.includes('--help')) {
    console.log(USAGE);
    process.exitCode = urls.length === 0 ? 1 : 0;
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-seed-'));
  try {
    const file = ensureDemoStore(dir);
    for (const url of urls) {
      const dialect = /^postgres(ql)?:/i.test(url) ? 'postgres' : /^(mysql|mariadb):/i.test(url) ? 'mysql' : null;
      if (!dialect) throw new Error(`not a postgres:// or mysql:// URL: ${url.replace(/\/\/[^@]*@/, '//…@')}`);
      const counts = await exportDemoStore(file, dialect, url.replace(/^mariadb:/i, 'mysql:'));
      console.log(`${url.replace(/\/\/[^@]*@/, '//…@')}: ${Object.entries(counts).map(([t, n]) => `${t} ${n}`).join(', ')}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`seed-samples failed: ${(error as Error).message}`);
  process.exit(1);
});
