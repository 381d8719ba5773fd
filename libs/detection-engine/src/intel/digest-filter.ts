import { BitFilter } from './bit-filter';

/** Hex digits a digest's slot is read from: digests are uniform, so their first digits are as good as a hash. */
const PREFIX_DIGITS = 8;

/**
 * A set of hex digests (JA3, certificate SHA-1/SHA-256, in their normal form: lower-case hex) as a
 * {@link BitFilter} keyed by the first eight digits. It can rule out a value as the sensor sent it, before
 * normalising: reading eight characters instead of hashing all 32 to 64 of them (the string hash of a digest
 * cost more than the rest of a TLS session's intel lookup).
 */
export class DigestFilter extends BitFilter<string> {
  /**
   * False when no digest held can be the normal form of `raw`. Normalising (trim, lower-case, drop `:` and
   * spaces) keeps a leading run of hex digits as it is but for case, so when `raw` starts with eight of them
   * they are its digest's first eight; otherwise this cannot tell, and answers true.
   */
  mayHoldNormalFormOf(raw: string): boolean {
    const prefix = hexPrefix(raw);
    return prefix === undefined || this.isSet(this.slotOfPrefix(prefix));
  }

  protected slotOf(value: string): number {
    const prefix = hexPrefix(value);
    // Only normal-form digests are put in, and they all have a hex prefix; anything else shares slot 0.
    return prefix === undefined ? 0 : this.slotOfPrefix(prefix);
  }

  private slotOfPrefix(prefix: number): number {
    return Math.imul(prefix, 0x9e3779b1) >>> (32 - this.slotBits);
  }
}

/** The number the first eight characters spell in hex (either case); undefined when one of them is not a hex digit. */
function hexPrefix(value: string): number | undefined {
  if (value.length < PREFIX_DIGITS) return undefined;
  let prefix = 0;
  for (let i = 0; i < PREFIX_DIGITS; i++) {
    const c = value.charCodeAt(i);
    const digit = c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1;
    if (digit < 0) return undefined;
    prefix = prefix * 16 + digit;
  }
  return prefix | 0;
}
