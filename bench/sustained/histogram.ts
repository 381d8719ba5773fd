/**
 * Prometheus histograms read from /metrics text: cumulative bucket counts by upper bound, differences between two
 * readings, and quantiles interpolated within a bucket as Prometheus's histogram_quantile does.
 */

/** Cumulative count per upper bound (`le`, +Inf included), summed over every series of `name` whose labels include `labels`. */
export type Buckets = Map<number, number>;

export function histogramBuckets(text: string, name: string, labels?: string): Buckets | undefined {
  const prefix = `${name}_bucket{`;
  let buckets: Buckets | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith(prefix)) continue;
    if (labels !== undefined && !line.includes(labels)) continue;
    const le = /le="([^"]+)"/.exec(line)?.[1];
    if (le === undefined) continue;
    const bound = le === '+Inf' ? Infinity : Number(le);
    buckets ??= new Map();
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return buckets;
}

export function addBuckets(a: Buckets | undefined, b: Buckets | undefined): Buckets | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const sum = new Map(a);
  for (const [bound, count] of b) sum.set(bound, (sum.get(bound) ?? 0) + count);
  return sum;
}

/** Observations between two readings of the same histogram. */
export function bucketsBetween(from: Buckets | undefined, to: Buckets | undefined): Buckets | undefined {
  if (to === undefined) return undefined;
  return new Map([...to].map(([bound, count]) => [bound, count - (from?.get(bound) ?? 0)]));
}

/** The q-quantile (0–1), interpolated linearly within its bucket; undefined with no observations. */
export function quantileOf(buckets: Buckets | undefined, q: number): number | undefined {
  if (buckets === undefined) return undefined;
  const bounds = [...buckets.keys()].sort((x, y) => x - y);
  const total = buckets.get(Infinity) ?? buckets.get(bounds[bounds.length - 1]) ?? 0;
  if (total <= 0) return undefined;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const bound of bounds) {
    const count = buckets.get(bound) ?? 0;
    if (count >= rank) {
      // In the open top bucket the best answer is the largest finite bound.
      if (bound === Infinity) return lower;
      return lower + ((bound - lower) * (rank - below)) / Math.max(1, count - below);
    }
    lower = bound;
    below = count;
  }
  return lower;
}
