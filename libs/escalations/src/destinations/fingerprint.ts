import { createHash } from 'node:crypto';

/**
 * What operators see instead of a secret (or a certificate): enough to tell two values apart or to check which
 * one is configured, never enough to recover it.
 */
export function fingerprint(value: string): string {
  return `sha256:${createHash('sha256').update(value, 'utf8').digest('hex').slice(0, 16)}`;
}
