import { stringHash } from './string-hash';

/**
 * A bounded memo for pure functions of a string (parsed names, classified User-Agents). Two generations of
 * at most `maxSize / 2` entries: a hit in the current generation is a plain Map lookup (no reordering, unlike
 * an exact LRU), a hit in the previous one is promoted, and a full current generation retires the previous
 * one. Recently used entries therefore survive; at most `maxSize` are held.
 *
 * With `admitOnRepeat`, a key is held only when it is asked for a second time while its first request is still
 * remembered (a bit per hash, for about the last `maxSize` keys not held). Most names of a network's long tail are
 * asked for once: held, each would stay for a generation, long enough for the garbage collector to move it to
 * the old generation, and push out a key that does recur.
 */
export class BoundedMemo<V> {
  // Values are held wrapped so that a computed `undefined` is told apart from a miss by one lookup.
  private current = new Map<string, V | typeof UNDEFINED>();
  private previous = new Map<string, V | typeof UNDEFINED>();
  private readonly generationSize: number;
  /** With admitOnRepeat: bits set by the hashes of keys computed once and not held. */
  private readonly askedOnce: Uint8Array | undefined;
  private askedOnceMarks = 0;

  /**
   * @param maxSize entries held at most (>= 2)
   * @param maxKeyLength longer keys are computed every time and never held, so memory stays bounded
   * @param admitOnRepeat hold a key only from its second request on (see above)
   */
  constructor(
    readonly maxSize: number,
    private readonly compute: (key: string) => V,
    private readonly maxKeyLength = 1024,
    admitOnRepeat = false,
  ) {
    if (!Number.isInteger(maxSize) || maxSize < 2) throw new RangeError(`BoundedMemo: maxSize must be an integer >= 2, got ${maxSize}`);
    this.generationSize = Math.floor(maxSize / 2);
    // 16 bits per key remembered: at most about 6 % of them set, so few keys are held on their first request.
    if (admitOnRepeat) this.askedOnce = new Uint8Array(2 ** Math.ceil(Math.log2(maxSize * 2)));
  }

  get size(): number {
    return this.current.size + this.previous.size;
  }

  get(key: string): V {
    const hit = this.current.get(key);
    if (hit !== undefined) return unwrap(hit);
    const earlier = this.previous.get(key);
    if (earlier !== undefined) {
      this.previous.delete(key);
      this.remember(key, earlier);
      return unwrap(earlier);
    }
    const value = this.compute(key);
    if (key.length <= this.maxKeyLength && this.admits(key)) this.remember(key, value === undefined ? UNDEFINED : value);
    return value;
  }

  /** Whether to hold a key just computed: always, or with admitOnRepeat when its hash was seen lately. */
  private admits(key: string): boolean {
    const bits = this.askedOnce;
    if (bits === undefined) return true;
    const hash = stringHash(0, key);
    const at = (hash >>> 3) & (bits.length - 1);
    const bit = 1 << (hash & 7);
    if ((bits[at] & bit) !== 0) return true;
    if (this.askedOnceMarks >= this.maxSize) {
      bits.fill(0);
      this.askedOnceMarks = 0;
    }
    bits[at] |= bit;
    this.askedOnceMarks++;
    return false;
  }

  private remember(key: string, value: V | typeof UNDEFINED): void {
    if (this.current.size >= this.generationSize) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }
}

const UNDEFINED: unique symbol = Symbol('undefined');

function unwrap<V>(held: V | typeof UNDEFINED): V {
  return (held === UNDEFINED ? undefined : held) as V;
}
