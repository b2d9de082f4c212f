import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/env.schema.js';
import { KeyRing, loadKeyRing, toMasterKey } from '../src/crypto/key-ring.js';
import { rotateSecrets } from '../src/crypto/rotate-secrets.js';
import { SecretBox } from '../src/crypto/secret-box.js';

const key = () => toMasterKey(crypto.randomBytes(32));
const ctx = { connectionId: 'c1', ownerId: 'u1' };

describe('SecretBox (AES-256-GCM)', () => {
  it('round-trips and never repeats an IV or ciphertext', () => {
    const box = new SecretBox(new KeyRing(key()));
    const a = box.seal('s3cret pässword', ctx);
    const b = box.seal('s3cret pässword', ctx);
    expect(a).not.toBe(b);
    expect(a.split('.')[2]).not.toBe(b.split('.')[2]);
    expect(a).not.toContain('s3cret');
    expect(box.open(a, ctx)).toBe('s3cret pässword');
    expect(Buffer.from(a.split('.')[2], 'base64url')).toHaveLength(12);
    expect(Buffer.from(a.split('.')[3], 'base64url')).toHaveLength(16);
  });

  it('binds the ciphertext to its connection and owner', () => {
    const box = new SecretBox(new KeyRing(key()));
    const sealed = box.seal('pw', ctx);
    expect(() => box.open(sealed, { ...ctx, connectionId: 'c2' })).toThrow(expect.objectContaining({ code: 'SECRET_UNREADABLE' }));
    expect(() => box.open(sealed, { ...ctx, ownerId: 'u2' })).toThrow(expect.objectContaining({ code: 'SECRET_UNREADABLE' }));
  });

  it('rejects tampering, garbage and foreign keys with SECRET_UNREADABLE', () => {
    const box = new SecretBox(new KeyRing(key()));
    const sealed = box.seal('pw', ctx);
    const parts = sealed.split('.');
    const flipped = Buffer.from(parts[4], 'base64url');
    flipped[0] ^= 1;
    const tampered = [...parts.slice(0, 4), flipped.toString('base64url')].join('.');
    for (const bad of [tampered, 'plaintext', 'v1.x.y.z', sealed.replace(/^v1/, 'v2'), [parts[0], parts[1], parts[2], Buffer.alloc(16).toString('base64url'), parts[4]].join('.')]) {
      expect(() => box.open(bad, ctx)).toThrow(expect.objectContaining({ code: 'SECRET_UNREADABLE' }));
    }
    const other = new SecretBox(new KeyRing(key()));
    expect(() => other.open(sealed, ctx)).toThrow(/not configured/);
  });

  it('opens old seals with previous keys and re-seals them under the current key', async () => {
    const oldKey = key();
    const newKey = key();
    const oldBox = new SecretBox(new KeyRing(oldKey));
    const rows = [
      { id: 'c1', user_id: 'u1', sealed_password: oldBox.seal('one', { connectionId: 'c1', ownerId: 'u1' }) },
      { id: 'c2', user_id: 'u2', sealed_password: oldBox.seal('two', { connectionId: 'c2', ownerId: 'u2' }) },
      { id: 'c3', user_id: 'u3', sealed_password: new SecretBox(new KeyRing(key())).seal('lost', { connectionId: 'c3', ownerId: 'u3' }) },
    ];
    const repository = {
      listSealed: async () => rows.map((r) => ({ ...r })),
      updateSealed: async (id: string, sealed: string) => {
        rows.find((r) => r.id === id)!.sealed_password = sealed;
      },
    };
    const box = new SecretBox(new KeyRing(newKey, [oldKey]));
    const report = await rotateSecrets(repository as never, box);
    expect(report).toEqual({ resealed: 2, alreadyCurrent: 0, unreadable: ['c3'] });
    const onlyNew = new SecretBox(new KeyRing(newKey));
    expect(onlyNew.open(rows[0].sealed_password, { connectionId: 'c1', ownerId: 'u1' })).toBe('one');
    expect(onlyNew.open(rows[1].sealed_password, { connectionId: 'c2', ownerId: 'u2' })).toBe('two');
    expect((await rotateSecrets(repository as never, box)).alreadyCurrent).toBe(2);
  });
});

describe('key ring', () => {
  it('generates one key file with mode 0600 on the embedded default and reuses it', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aigis-key-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    const first = loadKeyRing(config);
    expect(first.generatedFile).toBe(path.join(dataDir, 'master.key'));
    expect(fs.statSync(first.generatedFile!).mode & 0o777).toBe(0o600);
    const second = loadKeyRing(config);
    expect(second.generatedFile).toBeUndefined();
    expect(second.ring.current.id).toBe(first.ring.current.id);
    // An explicit key takes over; the old file key still opens what it sealed.
    const explicit = loadKeyRing(loadConfig({ DATA_DIR: dataDir, MASTER_ENCRYPTION_KEY: 'cd'.repeat(32) }));
    expect(explicit.ring.current.id).not.toBe(first.ring.current.id);
    expect(explicit.ring.find(first.ring.current.id)).toBeTruthy();
    fs.rmSync(dataDir, { recursive: true });
  });
});
