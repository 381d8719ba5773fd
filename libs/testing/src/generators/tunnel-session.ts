import type { DnsEvent } from '@vigil/contracts';
import type { Rng } from '../prng';
import { checkCount, checkDomain } from './checks';
import { ephemeralPort } from './network';
import { toEpochMs } from './timeline';

/**
 * What the tunnel-tool generators share: byte encoders as the tools use them in query names, label
 * splitting, and a session clock that turns (name, qtype, gap) steps into DNS events.
 */

/** Options every tunnel-tool session takes. */
export interface TunnelSessionOptions {
  srcIP: string;
  srcHost?: string;
  /** Time of the first query. Default 2024-06-10T06:00:00Z. */
  startTs?: Date | number | string;
  seed?: number | string;
}

export function randomBytes(rng: Rng, n: number): number[] {
  return Array.from({ length: n }, () => rng.int(0, 255));
}

export function uint16(value: number): number[] {
  return [(value >>> 8) & 0xff, value & 0xff];
}

export function hexEncode(bytes: readonly number[]): string {
  return bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** Bit-packs bytes into symbols of `bits` bits over `alphabet` (no padding), as base32/base64 encoders do. */
export function packBits(bytes: readonly number[], bits: number, alphabet: string): string {
  let out = '';
  let buffer = 0;
  let held = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    held += 8;
    while (held >= bits) {
      held -= bits;
      out += alphabet[(buffer >>> held) & ((1 << bits) - 1)];
    }
    buffer &= (1 << held) - 1;
  }
  if (held > 0) out += alphabet[(buffer << (bits - held)) & ((1 << bits) - 1)];
  return out;
}

export const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export const base32Encode = (bytes: readonly number[]): string => packBits(bytes, 5, BASE32_ALPHABET);
export const base64Encode = (bytes: readonly number[]): string => packBits(bytes, 6, BASE64_ALPHABET);
export const base64UrlEncode = (bytes: readonly number[]): string => packBits(bytes, 6, BASE64URL_ALPHABET);

/** Splits an encoded payload into labels of at most `labelLength` characters. */
export function dotify(payload: string, labelLength: number): string {
  const labels: string[] = [];
  for (let i = 0; i < payload.length; i += labelLength) labels.push(payload.slice(i, i + labelLength));
  return labels.join('.');
}

/** Room left for encoded characters in a name under `domain` with labels of `labelLength` (253 in all). */
export function payloadRoom(domain: string, labelLength: number): number {
  const free = 253 - domain.length - 1;
  return free - Math.floor(free / (labelLength + 1));
}

export interface SessionStep {
  name: string;
  qtype: string;
  /** Time since the previous query (ms); the first step's gap is ignored. */
  gapMs: number;
}

/** Turns the steps of a session into `n` DNS events of one host (the steps repeat when fewer). */
export function sessionEvents(rng: Rng, steps: () => SessionStep, n: number, opts: TunnelSessionOptions): DnsEvent[] {
  checkCount(n);
  let t = toEpochMs(opts.startTs, 'startTs');
  return Array.from({ length: n }, (_, i) => {
    const step = steps();
    if (i > 0) t += Math.max(1, Math.round(step.gapMs));
    const event: DnsEvent = { ts: new Date(t).toISOString(), srcIP: opts.srcIP, srcPort: ephemeralPort(rng), query: step.name, qtype: step.qtype };
    if (opts.srcHost) event.srcHost = opts.srcHost;
    return event;
  });
}

export function checkTunnelDomain(domain: string): void {
  checkDomain(domain, 'domain');
}
