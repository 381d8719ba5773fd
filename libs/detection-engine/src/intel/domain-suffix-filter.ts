import { FNV_OFFSET_BASIS, FNV_PRIME, stringHashFromEnd } from '../string-hash';
import { BitFilter } from './bit-filter';

const DOT = 0x2e;

/**
 * The domains of a set of indicators as a {@link BitFilter}, hashed from the last character backwards, so that
 * one pass over a host name gives the hash of the name and of each of its parent zones (`a.evil.com`,
 * `evil.com`, `com`). Matching a name against domain indicators then costs that pass and a few cached bit tests,
 * and only a zone that passes the filter is cut out of the name and looked up in the table (a cache miss each in
 * a table of hundreds of thousands).
 */
export class DomainSuffixFilter extends BitFilter<string> {
  protected slotOf(domain: string): number {
    return this.slotOfHash(stringHashFromEnd(domain));
  }

  /**
   * Fills `starts` with the offsets in `name` (lower-case, no trailing dot) of the zones that may be indicators,
   * the name itself (offset 0) last; returns how many.
   */
  candidateZones(name: string, starts: number[]): number {
    let count = 0;
    // stringHashFromEnd, step by step.
    let hash = FNV_OFFSET_BASIS;
    for (let i = name.length - 1; i >= 0; i--) {
      const code = name.charCodeAt(i);
      // The hash so far is the zone right of this dot's.
      if (code === DOT && this.isSet(this.slotOfHash(hash >>> 0))) starts[count++] = i + 1;
      hash = Math.imul(hash ^ code, FNV_PRIME);
    }
    if (this.isSet(this.slotOfHash(hash >>> 0))) starts[count++] = 0;
    return count;
  }

  private slotOfHash(hash: number): number {
    return Math.imul(hash, 0x9e3779b1) >>> (32 - this.slotBits);
  }
}
