/**
 * A bounded memo for pure functions of a string (parsed names, classified User-Agents). Two generations of
 * at most `maxSize / 2` entries: a hit in the current generation is a plain Map lookup (no reordering, unlike
 * an exact LRU), a hit in the previous one is promoted, and a full current generation retires the previous
 * one. Recently used entries therefore survive; at most `maxSize` are held.
 */
export class BoundedMemo<V> {
  // Values are held wrapped so that a computed `undefined` is told apart from a miss by one lookup.
  private current = new Map<string, V | typeof UNDEFINED>();
  private previous = new Map<string, V | typeof UNDEFINED>();
  private readonly generationSize: number;

  /**
   * @param maxSize entries held at most (>= 2)
   * @param maxKeyLength longer keys are computed every time and never held, so memory stays bounded
   */
  constructor(
    readonly maxSize: number,
    private readonly compute: (key: string) => V,
    private readonly maxKeyLength = 1024,
  ) {
    if (!Number.isInteger(maxSize) || maxSize < 2) throw new RangeError(`BoundedMemo: maxSize must be an integer >= 2, got ${maxSize}`);
    this.generationSize = Math.floor(maxSize / 2);
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
    if (key.length <= this.maxKeyLength) this.remember(key, value === undefined ? UNDEFINED : value);
    return value;
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
