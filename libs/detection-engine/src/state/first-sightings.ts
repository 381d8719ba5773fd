import { stringHash } from '../string-hash';

/**
 * The first event of keys seen once, held in a fixed-size table of typed arrays instead of keyed state. Under
 * memory pressure most new keys of a per-pair detection (a host and an Internet address) never come back: giving
 * each one state, only for the state budget to evict it a moment later, was most of the scoring threads' garbage.
 * Here a key's first event costs no allocation, and a key earns state when it is seen again while its slot still
 * holds it. A slot is picked by the key's hash and taken over by the next key that hashes to it, so a first
 * sighting is forgotten after about `slots` other new keys; two keys with equal 32-bit hashes would share one.
 */
export class FirstSightings {
  private readonly hashes: Uint32Array;
  private readonly held: Uint8Array;
  private readonly values: Float64Array;
  private readonly mask: number;

  /**
   * @param slots a power of two
   * @param width numbers kept per first sighting
   */
  constructor(
    readonly slots: number,
    readonly width: number,
  ) {
    if (!Number.isInteger(Math.log2(slots))) throw new RangeError(`FirstSightings: slots must be a power of two, got ${slots}`);
    if (!Number.isInteger(width) || width < 1) throw new RangeError(`FirstSightings: width must be a positive integer, got ${width}`);
    this.hashes = new Uint32Array(slots);
    this.held = new Uint8Array(slots);
    this.values = new Float64Array(slots * width);
    this.mask = slots - 1;
  }

  /** The hash that {@link remember} and {@link take} are given for `key`. */
  static hashOf(key: string): number {
    return stringHash(0, key);
  }

  /** Holds `values` (the first `width` numbers) as the first sighting of the key with this hash. */
  remember(hash: number, values: ArrayLike<number>): void {
    const slot = hash & this.mask;
    this.hashes[slot] = hash;
    this.held[slot] = 1;
    const at = slot * this.width;
    for (let i = 0; i < this.width; i++) this.values[at + i] = values[i];
  }

  /** Takes the key's first sighting out of the table into `into`; false when the table does not hold one. */
  take(hash: number, into: number[]): boolean {
    const slot = hash & this.mask;
    if (this.held[slot] === 0 || this.hashes[slot] !== hash) return false;
    this.held[slot] = 0;
    const at = slot * this.width;
    for (let i = 0; i < this.width; i++) into[i] = this.values[at + i];
    return true;
  }

  /**
   * Given the key's current sighting: when the table holds the key's first one, writes that into `sighting` and
   * forgets it (true); otherwise holds `sighting` as the key's first (false).
   */
  recallOrHold(key: string, sighting: number[]): boolean {
    const hash = FirstSightings.hashOf(key);
    if (this.take(hash, sighting)) return true;
    this.remember(hash, sighting);
    return false;
  }

  /** Forgets every first sighting (a restored engine starts without them). */
  clear(): void {
    this.held.fill(0);
  }
}
