/**
 * A bit per slot, set for every value held: a filter that answers "certainly absent" or "perhaps present".
 * Sized at about 16 bits per value, so that roughly one absent value in 16 passes; subclasses say how a value
 * picks its slot.
 */
export abstract class BitFilter<T> {
  private readonly bits: Uint32Array;
  /** log2 of the number of slots. */
  protected readonly slotBits: number;
  /** The number of slots minus one: the low `slotBits` bits. */
  protected readonly slotMask: number;

  constructor(values: Iterable<T>, expected: number) {
    let slotBits = 10;
    while (2 ** slotBits < expected * 16 && slotBits < 26) slotBits++;
    this.slotBits = slotBits;
    this.slotMask = 2 ** slotBits - 1;
    this.bits = new Uint32Array(2 ** slotBits / 32);
    for (const value of values) {
      const slot = this.slotOf(value);
      this.bits[slot >>> 5] |= 1 << (slot & 31);
    }
  }

  mayContain(value: T): boolean {
    return this.isSet(this.slotOf(value));
  }

  /** Whether some value held has this slot. */
  protected isSet(slot: number): boolean {
    return (this.bits[slot >>> 5] & (1 << (slot & 31))) !== 0;
  }

  /** A slot in [0, 2^slotBits). */
  protected abstract slotOf(value: T): number;
}
