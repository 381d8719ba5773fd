import { stringHash } from '../string-hash';

/**
 * A set of strings that answers "certainly absent" or "perhaps present" (one hash per string, a bit per slot):
 * a few kilobytes that rule out most lookups before the costly exact one.
 */
export class StringFilter {
  private readonly bits: Uint32Array;
  private readonly mask: number;

  /** Sized at about 16 bits per string, so that roughly one absent string in 16 passes. */
  constructor(values: Iterable<string>, expected: number) {
    let slots = 1024;
    while (slots < expected * 16 && slots < 1 << 26) slots *= 2;
    this.bits = new Uint32Array(slots / 32);
    this.mask = slots - 1;
    for (const value of values) {
      const slot = this.slotOf(value);
      this.bits[slot >>> 5] |= 1 << (slot & 31);
    }
  }

  mayContain(value: string): boolean {
    const slot = this.slotOf(value);
    return (this.bits[slot >>> 5] & (1 << (slot & 31))) !== 0;
  }

  private slotOf(value: string): number {
    return stringHash(0, value) & this.mask;
  }
}
