import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../config/env.schema.js';
import { KEY_FILE, KeyRing, loadKeyRing, NEXT_KEY_FILE, toMasterKey, writeKeyFile } from '../crypto/key-ring.js';
import { rotateSecrets } from '../crypto/rotate-secrets.js';
import { SecretBox } from '../crypto/secret-box.js';
import { createAppDb, migrateToLatest } from '../storage/database.js';
import { ConnectionsRepository } from '../storage/repositories/connections.repository.js';

const USAGE = `Re-seals every stored connection password under the current encryption key.

  With your own key:  set MASTER_ENCRYPTION_KEY to the NEW key and PREVIOUS_ENCRYPTION_KEYS to the old one(s),
                      run \`npm run rotate-key\`, then remove the old key from PREVIOUS_ENCRYPTION_KEYS.
  Embedded default:   \`npm run rotate-key -- --generate\` makes a new DATA_DIR/master.key and re-seals under it.`;

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const config = loadConfig();
  const generate = args.includes('--generate');
  if (generate && config.MASTER_ENCRYPTION_KEY) throw new Error('--generate rotates the key file of the embedded default; with MASTER_ENCRYPTION_KEY set, set the new key there instead');

  let { ring } = loadKeyRing(config);
  const nextFile = path.join(config.dataDir, NEXT_KEY_FILE);
  if (generate) {
    // The next key is on disk before anything is sealed with it, so a crash mid-way loses nothing.
    if (!fs.existsSync(nextFile)) writeKeyFile(nextFile, crypto.randomBytes(32));
    ring = loadKeyRing(config).ring;
    const next = toMasterKey(Buffer.from(fs.readFileSync(nextFile, 'utf8').trim(), 'hex'));
    ring = new KeyRing(next, ring.ids.filter((id) => id !== next.id).map((id) => ring.find(id)!));
  }

  const db = createAppDb(config);
  try {
    await migrateToLatest(db);
    const report = await rotateSecrets(new ConnectionsRepository(db), new SecretBox(ring));
    if (generate) fs.renameSync(nextFile, path.join(config.dataDir, KEY_FILE));
    console.log(`Current key: ${ring.current.id}. Re-sealed ${report.resealed}, already current ${report.alreadyCurrent}.`);
    if (report.unreadable.length) {
      console.log(`${report.unreadable.length} connection(s) could not be opened with any configured key (their owners must enter the password again): ${report.unreadable.join(', ')}`);
      process.exitCode = 2;
    }
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  console.error(error instanceof ConfigError ? error.message : `rotate-key failed: ${(error as Error).message}`);
  process.exit(1);
});
