/**
 * A bounded memo for pure functions of a string (parsed names, classified User-Agents). Two generations of
 * at most `maxSize / 2` entries: a hit in the current generation is a plain Map lookup (no reordering, unlike
 * an exact LRU), a hit in the previous one is promoted, and a full current generation retires the previous
 * one. Recently used entries therefore survive; at most `maxSize` are held.
 */
export class BoundedMemo<V> {
  private current = new Map<string, V>();
  private previous = new Map<string, V>();
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
    if (hit !== undefined || this.current.has(key)) return hit as V;
    if (this.previous.has(key)) {
      const value = this.previous.get(key) as V;
      this.previous.delete(key);
      this.remember(key, value);
      return value;
    }
    const value = this.compute(key);
    if (key.length <= this.maxKeyLength) this.remember(key, value);
    return value;
  }

  private remember(key: string, value: V): void {
    if (this.current.size >= this.generationSize) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(key, value);
  }
}
