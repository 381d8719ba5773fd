import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The webhook signature scheme (documented in the README for receivers):
 *   X-Vigil-Timestamp: <unix seconds when the attempt was sent>
 *   X-Vigil-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body bytes>")>
 * A receiver recomputes the HMAC over the raw body, compares in constant time, and refuses timestamps more than
 * {@link DEFAULT_TOLERANCE_SECONDS} away from its clock (replay protection); Idempotency-Key de-duplicates.
 */
export const SIGNATURE_HEADER = 'x-vigil-signature';
export const TIMESTAMP_HEADER = 'x-vigil-timestamp';
export const SIGNATURE_VERSION = 'v1';
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function webhookSignature(secret: string, timestamp: string, body: Buffer): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.`, 'utf8').update(body).digest('hex');
  return `${SIGNATURE_VERSION}=${mac}`;
}

export type SignatureCheck = { ok: true } | { ok: false; reason: string };

/** What a receiver does: the reference implementation of the check (used by the tests, usable by receivers). */
export function verifyWebhookSignature(
  secret: string,
  headers: { timestamp?: string; signature?: string },
  body: Buffer,
  nowSeconds = Math.floor(Date.now() / 1000),
  toleranceSeconds = DEFAULT_TOLERANCE_SECONDS,
): SignatureCheck {
  const { timestamp, signature } = headers;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp)) return { ok: false, reason: 'missing or malformed timestamp' };
  if (Math.abs(nowSeconds - Number(timestamp)) > toleranceSeconds) return { ok: false, reason: 'timestamp outside the tolerance (possible replay)' };
  const expected = Buffer.from(webhookSignature(secret, timestamp, body));
  const presented = Buffer.from(signature ?? '');
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return { ok: false, reason: 'signature mismatch' };
  return { ok: true };
}
