import { BitFilter } from './bit-filter';

/**
 * A set of 32-bit unsigned numbers (IPv4 addresses) as a {@link BitFilter}. An address table of tens of
 * thousands of indicators is a cache miss on every lookup; these few hundred kilobytes of bits stay cached and
 * rule out almost every flow's address.
 */
export class NumberFilter extends BitFilter<number> {
  /** The top bits of a multiplicative hash (the low bits of addresses in one network are alike). */
  protected slotOf(value: number): number {
    return Math.imul(value | 0, 0x9e3779b1) >>> (32 - this.slotBits);
  }
}
