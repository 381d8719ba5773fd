/**
 * A set of 32-bit unsigned numbers (IPv4 addresses) that answers "certainly absent" or "perhaps present", as
 * {@link StringFilter} does for strings. An address table of tens of thousands of indicators is a cache miss
 * on every lookup; these few hundred kilobytes of bits stay cached and rule out almost every flow's address.
 */
export class NumberFilter {
  private readonly bits: Uint32Array;
  /** Slots are the top bits of a multiplicative hash: `32 - log2(slots)` is how far it is shifted. */
  private readonly shift: number;

  /** Sized at about 16 bits per number, so that roughly one absent number in 16 passes. */
  constructor(values: Iterable<number>, expected: number) {
    let log2 = 10;
    while (2 ** log2 < expected * 16 && log2 < 26) log2++;
    this.bits = new Uint32Array(2 ** log2 / 32);
    this.shift = 32 - log2;
    for (const value of values) {
      const slot = this.slotOf(value);
      this.bits[slot >>> 5] |= 1 << (slot & 31);
    }
  }

  mayContain(value: number): boolean {
    const slot = this.slotOf(value);
    return (this.bits[slot >>> 5] & (1 << (slot & 31))) !== 0;
  }

  private slotOf(value: number): number {
    return Math.imul(value | 0, 0x9e3779b1) >>> this.shift;
  }
}
