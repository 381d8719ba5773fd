/**
 * Beacon scoring in the manner of RITA v5: four sub-scores in [0, 1], equally weighted.
 * - timestamps: Bowley skew and median absolute deviation (MAD) of the intervals between connections: a timer
 *   with jitter still gives a symmetric, tight interval distribution; people and load do not.
 * - data sizes: the same two measures over bytes per connection (a beacon's check-in is the same size).
 * - histogram: connections per bin over the observed period (24 bins), scored by flatness (1 - coefficient
 *   of variation) or by fit to at most two bar heights (a beacon alternating between two rates).
 * - duration: how much of the observed period the pair spans, or its longest run of non-empty bins.
 * All inputs are plain numbers so the functions can be tested on their own.
 */

/** Median of a sorted array (mean of the middle two for an even length). */
export function median(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Quartiles by medians of the halves (the median itself excluded from both halves for an odd length). */
export function quartiles(sorted: readonly number[]): [number, number, number] {
  const n = sorted.length;
  const half = n >> 1;
  const lower = sorted.slice(0, half);
  const upper = sorted.slice(n % 2 === 1 ? half + 1 : half);
  return [median(lower), median(sorted), median(upper)];
}

/**
 * 1 - |Bowley skew|. Skew is taken as 0 when the quartiles are closer than `minSpread` (whole seconds or
 * bytes of difference are noise) or the median sits on a quartile.
 */
export function skewScore(sorted: readonly number[], minSpread = 10): { skew: number; score: number } {
  if (sorted.length < 3) return { skew: 0, score: 0 };
  const [q1, q2, q3] = quartiles(sorted);
  const spread = q3 - q1;
  const skew = spread >= minSpread && q2 !== q1 && q2 !== q3 ? (q1 + q3 - 2 * q2) / spread : 0;
  return { skew, score: 1 - Math.abs(skew) };
}

/** (median - MAD) / median, floored at 0; `whenTiny` when the median is under 1 (nothing to compare to). */
export function madScore(sorted: readonly number[], whenTiny: number): { mad: number; score: number } {
  if (sorted.length === 0) return { mad: 0, score: 0 };
  const m = median(sorted);
  const deviations = sorted.map((v) => Math.abs(v - m)).sort((a, b) => a - b);
  const mad = median(deviations);
  const score = m >= 1 ? (m - mad) / m : whenTiny;
  return { mad, score: Number.isNaN(score) || score < 0 ? 0 : score };
}

export interface TimestampScore {
  score: number;
  medianIntervalS: number;
  madS: number;
  skew: number;
}

/** Scores sorted connection times (seconds); undefined with fewer than 3 non-zero intervals. */
export function timestampScore(sortedTimesS: readonly number[]): TimestampScore | undefined {
  const intervals: number[] = [];
  for (let i = 1; i < sortedTimesS.length; i++) {
    const gap = sortedTimesS[i] - sortedTimesS[i - 1];
    if (gap > 0) intervals.push(gap);
  }
  if (intervals.length < 3) return undefined;
  intervals.sort((a, b) => a - b);
  const skew = skewScore(intervals);
  const mad = madScore(intervals, 1);
  return { score: (skew.score + mad.score) / 2, medianIntervalS: median(intervals), madS: mad.mad, skew: skew.skew };
}

export interface DataSizeScore {
  score: number;
  medianBytes: number;
  madBytes: number;
}

export function dataSizeScore(bytes: readonly number[]): DataSizeScore | undefined {
  if (bytes.length < 3) return undefined;
  const sorted = [...bytes].sort((a, b) => a - b);
  const skew = skewScore(sorted);
  const mad = madScore(sorted, 0);
  return { score: (skew.score + mad.score) / 2, medianBytes: median(sorted), madBytes: mad.mad };
}

export interface HistogramShape {
  score: number;
  /** Non-empty bins. */
  bars: number;
  /** Longest run of consecutive non-empty bins, wrapping around the end. */
  longestRun: number;
}

/**
 * Scores connection counts per bin. `modeSensitivity`: bars within this fraction of the tallest bar's
 * height count as the same height; `minBarsForBimodal`: fewer non-empty bins than this cannot show two modes.
 */
export function histogramShape(counts: readonly number[], modeSensitivity = 0.05, minBarsForBimodal = 11): HistogramShape {
  const total = counts.reduce((s, c) => s + c, 0);
  if (counts.length === 0 || total <= 0) return { score: 0, bars: 0, longestRun: 0 };
  const mean = total / counts.length;
  const sd = Math.sqrt(counts.reduce((s, c) => s + (c - mean) ** 2, 0) / counts.length);
  const cv = sd / mean;
  const cvScore = cv > 1 ? 0 : 1 - cv;

  const tallest = Math.max(...counts);
  const binSize = Math.max(1, Math.ceil(tallest * modeSensitivity));
  const heights = new Map<number, number>();
  let bars = 0;
  for (const c of counts) {
    if (c <= 0) continue;
    bars++;
    const height = Math.floor(c / binSize);
    heights.set(height, (heights.get(height) ?? 0) + 1);
  }
  let longestRun = 0;
  let run = 0;
  for (let i = 0; i < counts.length * 2; i++) {
    run = counts[i % counts.length] > 0 ? run + 1 : 0;
    longestRun = Math.max(longestRun, run);
  }
  longestRun = Math.min(longestRun, counts.length);

  let bimodalScore = 0;
  if (bars >= minBarsForBimodal) {
    const [first = 0, second = 0] = [...heights.values()].sort((a, b) => b - a);
    // One odd bar is forgiven.
    bimodalScore = Math.min(1, (first + second) / Math.max(bars - 1, 1));
  }
  return { score: Math.max(cvScore, bimodalScore), bars, longestRun };
}

/**
 * max(coverage, consistency) once at least `minBars` bins hold connections: coverage = the pair's span over
 * the observed period, consistency = longest run of bins over `idealRun`.
 */
export function durationScore(pairSpanS: number, periodS: number, shape: HistogramShape, minBars = 6, idealRun = 12): number {
  if (shape.bars < minBars || !(periodS > 0)) return 0;
  const coverage = Math.min(1, pairSpanS / periodS);
  const consistency = Math.min(1, shape.longestRun / idealRun);
  return Math.max(coverage, consistency);
}
