/**
 * A fixed number of doubles per slot of an {@link LruMap}, in one typed array that grows by doubling as higher
 * slots are used. Slots are dense and never exceed the map's bound, so the array never outgrows `maxSlots`.
 * Owners keep per-key numbers here instead of an object per key.
 */
export class SlotNumbers {
  /** The numbers, `width` per slot from {@link offsetOf}; replaced when it grows, so read it after {@link reserve}. */
  values = new Float64Array(0);

  constructor(
    /** Numbers per slot. */
    readonly width: number,
    /** The most slots the owner's map can hand out. */
    private readonly maxSlots: number,
    /** Slots made room for at the first growth. */
    private readonly initialSlots = 64,
  ) {
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`SlotNumbers: width must be a positive integer, got ${width}`);
  }

  /** Bytes each slot costs once the array has grown to it. */
  get bytesPerSlot(): number {
    return Float64Array.BYTES_PER_ELEMENT * this.width;
  }

  /** Where a slot's numbers start in {@link values}. */
  offsetOf(slot: number): number {
    return slot * this.width;
  }

  /** Makes room for a slot and answers where its numbers start. */
  reserve(slot: number): number {
    const at = slot * this.width;
    if (at + this.width > this.values.length) this.grow(at + this.width);
    return at;
  }

  private grow(length: number): void {
    let capacity = Math.max(this.values.length, this.initialSlots * this.width);
    while (capacity < length) capacity *= 2;
    const grown = new Float64Array(Math.max(length, Math.min(capacity, this.maxSlots * this.width)));
    grown.set(this.values);
    this.values = grown;
  }
}
