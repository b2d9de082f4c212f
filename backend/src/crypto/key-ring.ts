import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensurePrivateDataDir } from '../config/app-files.js';
import type { AppConfig } from '../config/env.schema.js';

export interface MasterKey {
  /** Short id stored beside each ciphertext so rotation knows which key opens it. */
  id: string;
  key: Buffer;
}

export function keyId(key: Buffer): string {
  return crypto.createHash('sha256').update(key).digest('hex').slice(0, 12);
}

/** Accepts 64 hex characters or base64 of 32 bytes. */
export function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('an encryption key must be 32 bytes (64 hex characters or base64)');
  return key;
}

export function toMasterKey(key: Buffer): MasterKey {
  return { id: keyId(key), key };
}

export const KEY_FILE = 'master.key';
/** Written before a rotation re-seals anything, so a crash mid-rotation never strands a ciphertext. */
export const NEXT_KEY_FILE = 'master.key.next';

/** The key that seals, and every key that may still open an older seal. */
export class KeyRing {
  private readonly byId: Map<string, MasterKey>;

  constructor(
    readonly current: MasterKey,
    others: MasterKey[] = [],
  ) {
    this.byId = new Map([current, ...others].map((k) => [k.id, k]));
  }

  find(id: string): MasterKey | undefined {
    return this.byId.get(id);
  }

  get ids(): string[] {
    return [...this.byId.keys()];
  }
}

export interface KeyRingLoad {
  ring: KeyRing;
  /** Set when a key was generated into DATA_DIR on this start (the caller logs a warning). */
  generatedFile?: string;
}

/**
 * MASTER_ENCRYPTION_KEY when set (PREVIOUS_ENCRYPTION_KEYS still open old seals). Otherwise, in the
 * embedded default only, a key generated once into DATA_DIR/master.key with mode 0600.
 */
export function loadKeyRing(config: AppConfig): KeyRingLoad {
  const previous = (config.PREVIOUS_ENCRYPTION_KEYS ?? '')
    .split(',')
    .filter((s) => s.trim())
    .map((s) => toMasterKey(parseKey(s)));
  const keyFile = path.join(config.dataDir, KEY_FILE);
  const nextFile = path.join(config.dataDir, NEXT_KEY_FILE);
  const fileKeys = [keyFile, nextFile].filter((f) => fs.existsSync(f)).map((f) => toMasterKey(readKeyFile(f)));

  if (config.MASTER_ENCRYPTION_KEY) {
    // A key file left from the embedded default still opens what it sealed.
    return { ring: new KeyRing(toMasterKey(parseKey(config.MASTER_ENCRYPTION_KEY)), [...previous, ...fileKeys]) };
  }
  if (config.mode === 'server') throw new Error('MASTER_ENCRYPTION_KEY is required in server mode');

  if (fileKeys.length > 0) {
    const [current, ...others] = fileKeys;
    return { ring: new KeyRing(current, [...others, ...previous]) };
  }
  ensurePrivateDataDir(config);
  writeKeyFile(keyFile, crypto.randomBytes(32));
  return { ring: new KeyRing(toMasterKey(readKeyFile(keyFile)), previous), generatedFile: keyFile };
}

export function readKeyFile(file: string): Buffer {
  return parseKey(fs.readFileSync(file, 'utf8'));
}

/** Creates the file with mode 0600 (exclusive, so two processes never race to different keys). */
export function writeKeyFile(file: string, key: Buffer): void {
  const fd = fs.openSync(file, 'wx', 0o600);
  try {
    fs.writeSync(fd, `${key.toString('hex')}\n`);
  } finally {
    fs.closeSync(fd);
  }
  fs.chmodSync(file, 0o600);
}
