import crypto from 'node:crypto';
import { AppError } from '../common/app-error.js';
import type { KeyRing } from './key-ring.js';

/** What a sealed secret is bound to: a ciphertext moved to another row or owner does not open. */
export interface SecretContext {
  connectionId: string;
  ownerId: string;
}

const VERSION = 'v1';

/**
 * AES-256-GCM: a random 96-bit IV per seal, the 128-bit auth tag, the key id for rotation,
 * and the connection id + owner as associated data. Envelope: `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretBox {
  constructor(private readonly keys: KeyRing) {}

  seal(plaintext: string, context: SecretContext): string {
    const { id, key } = this.keys.current;
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
    cipher.setAAD(associatedData(context));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, id, iv.toString('base64url'), tag.toString('base64url'), ciphertext.toString('base64url')].join('.');
  }

  /** Throws SECRET_UNREADABLE (never returns garbage) for a tampered, foreign or unknown-key envelope. */
  open(envelope: string, context: SecretContext): string {
    const parts = envelope.split('.');
    if (parts.length !== 5 || parts[0] !== VERSION) throw unreadable('it is not a sealed secret of a known format');
    const [, id, ivText, tagText, ctText] = parts;
    const master = this.keys.find(id);
    if (!master) throw unreadable(`it was sealed with key ${id}, which is not configured (set it in PREVIOUS_ENCRYPTION_KEYS)`);
    const iv = Buffer.from(ivText, 'base64url');
    const tag = Buffer.from(tagText, 'base64url');
    if (iv.length !== 12 || tag.length !== 16) throw unreadable('the envelope is damaged');
    try {
      const decipher = crypto.createDecipheriv('aes-256-gcm', master.key, iv);
      decipher.setAAD(associatedData(context));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(ctText, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw unreadable('it was altered or belongs to another connection');
    }
  }

  /** The key id an envelope was sealed with (for rotation), or null if it is not an envelope. */
  static keyIdOf(envelope: string): string | null {
    const parts = envelope.split('.');
    return parts.length === 5 && parts[0] === VERSION ? parts[1] : null;
  }

  get currentKeyId(): string {
    return this.keys.current.id;
  }
}

function associatedData({ connectionId, ownerId }: SecretContext): Buffer {
  return Buffer.from(`aigis:connection:${connectionId}:owner:${ownerId}`, 'utf8');
}

function unreadable(why: string): AppError {
  return new AppError(
    'SECRET_UNREADABLE',
    `The stored password of this connection cannot be decrypted: ${why}. Enter the password again to fix the connection.`,
  );
}
