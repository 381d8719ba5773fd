/**
 * Seeded pseudo-random numbers for reproducible test data (sfc32, seeded through a string hash).
 * Not for anything security related.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** Uniform in [min, max). */
  float(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Picks by relative weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** `length` characters drawn from `alphabet`. */
  string(alphabet: string, length: number): string;
  /** Exponentially distributed value with the given mean (gaps between independent arrivals). */
  exponential(mean: number): number;
}

/** 32-bit FNV-1a followed by a murmur3-style finaliser. */
function hash32(text: string, salt: number): number {
  let h = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function createRng(seed: number | string): Rng {
  if (typeof seed === 'number' && !Number.isFinite(seed)) throw new RangeError(`seed must be a finite number, got ${seed}`);
  const text = String(seed);
  let a = hash32(text, 1);
  let b = hash32(text, 2);
  let c = hash32(text, 3);
  let d = hash32(text, 4);

  const nextUint32 = (): number => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  // Discard the first outputs: sfc32 mixes its state during them.
  for (let i = 0; i < 12; i++) nextUint32();

  const next = (): number => nextUint32() / 4294967296;

  const rng: Rng = {
    next,
    int(min, max) {
      if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) {
        throw new RangeError(`int(min, max) needs integers with min <= max, got ${min}, ${max}`);
      }
      return min + Math.floor(next() * (max - min + 1));
    },
    float(min, max) {
      return min + next() * (max - min);
    },
    chance(probability) {
      return next() < probability;
    },
    pick(items) {
      if (items.length === 0) throw new RangeError('pick() needs a non-empty list');
      return items[Math.floor(next() * items.length)];
    },
    weighted(entries) {
      const total = entries.reduce((sum, [, w]) => sum + w, 0);
      if (!(total > 0)) throw new RangeError('weighted() needs at least one positive weight');
      let r = next() * total;
      for (const [value, weight] of entries) {
        r -= weight;
        if (r < 0) return value;
      }
      return entries[entries.length - 1][0];
    },
    string(alphabet, length) {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[Math.floor(next() * alphabet.length)];
      return out;
    },
    exponential(mean) {
      return -Math.log(1 - next()) * mean;
    },
  };
  return rng;
}
