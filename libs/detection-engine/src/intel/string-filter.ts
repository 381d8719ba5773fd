import { stringHash } from '../string-hash';
import { BitFilter } from './bit-filter';

/** A set of strings as a {@link BitFilter}: a few kilobytes that rule out most lookups before the costly exact one. */
export class StringFilter extends BitFilter<string> {
  protected slotOf(value: string): number {
    return stringHash(0, value) & this.slotMask;
  }
}
