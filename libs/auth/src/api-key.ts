import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const KEY_PREFIX = 'vgl_';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A new random API key: `vgl_` + 32 base62 characters (~190 bits). */
export function generateApiKey(): string {
  const bytes = randomBytes(32);
  let body = '';
  for (const byte of bytes) body += BASE62[byte % 62];
  return KEY_PREFIX + body;
}

/** Keys are stored only as this hash (SHA-256, hex). Keys are long random strings, so no slow KDF is needed. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The first 12 characters, shown in listings so operators can tell keys apart without revealing them. */
export function apiKeyPrefix(key: string): string {
  return key.slice(0, 12);
}

/** Constant-time comparison of two hex hashes of equal length. */
export function hashesEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
