import fs from 'node:fs';
import type { AppConfig } from './config/env.schema.js';
import { loadKeyRing } from './crypto/key-ring.js';
import { ensureDemoStore } from './demo/demo-store.generator.js';
import { createAppDb, migrateToLatest } from './storage/database.js';

/**
 * The work that must happen once before several API processes start: the generated key (a race
 * would give two keys), the migrations and the demo store. A single process does it in its modules.
 */
export async function prepareDataDir(config: AppConfig): Promise<void> {
  const { generatedFile } = loadKeyRing(config);
  if (generatedFile) console.warn(`Generated an encryption key for connection passwords at ${generatedFile} (mode 0600). Back it up.`);
  const db = createAppDb(config);
  try {
    await migrateToLatest(db);
  } finally {
    await db.destroy();
  }
  if (config.mode === 'embedded' && config.DEMO_DATABASE) {
    try {
      fs.mkdirSync(config.sqliteRoot, { recursive: true });
      ensureDemoStore(config.sqliteRoot);
    } catch (error) {
      console.warn(`Demo store not available: ${(error as Error).message}`);
    }
  }
}
