import crypto from 'node:crypto';
import { Injectable } from '@nestjs/common';

const N = 16_384; // 2^14 × r 8 × 128 B = 16 MiB per hash: memory-hard, ~40 ms here
const R = 8;
const P = 1;
const KEY_LENGTH = 32;
const MAXMEM = 64 * 1024 * 1024;

function scrypt(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    crypto.scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { N: n, r, p, maxmem: MAXMEM }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** scrypt with its parameters stored in the hash (`scrypt$N$r$p$salt$hash`) so they can be raised later. */
@Injectable()
export class PasswordHasher {
  async hash(password: string): Promise<string> {
    const salt = crypto.randomBytes(16);
    const key = await scrypt(password, salt, N, R, P);
    return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
  }

  async verify(password: string, stored: string): Promise<boolean> {
    const [scheme, n, r, p, saltText, keyText] = stored.split('$');
    if (scheme !== 'scrypt' || !keyText) return false;
    const expected = Buffer.from(keyText, 'base64url');
    const actual = await scrypt(password, Buffer.from(saltText, 'base64url'), Number(n), Number(r), Number(p));
    return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
  }

  /** A real hash to verify against when the email is unknown, so timing does not reveal which emails exist. */
  private dummy?: Promise<string>;
  dummyHash(): Promise<string> {
    this.dummy ??= this.hash(crypto.randomBytes(16).toString('hex'));
    return this.dummy;
  }
}
