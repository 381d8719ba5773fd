/**
 * Timing two pieces of work against each other on a machine whose speed drifts (other tenants, caches): rounds of
 * each alternate, and each round of the measured side is divided by the baseline round just before it. A ratio of
 * neighbouring rounds cancels most of the drift where a ratio of two medians would not.
 */

/** ns per event of one round: `prepare` (untimed) returns the timed work, which answers how many events it handled. */
export function timeRound(prepare: () => () => number): number {
  const run = prepare();
  const started = process.hrtime.bigint();
  const events = run();
  return Number(process.hrtime.bigint() - started) / events;
}

export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

export interface PairedComparison {
  /** Median ns per event of each side. */
  baseline: number;
  measured: number;
  /** The median and quartiles of the per-round ratios measured / baseline. */
  ratio: number;
  ratioLow: number;
  ratioHigh: number;
}

/** `rounds` rounds of each side, alternating after a warm-up round of each. */
export function comparePaired(rounds: number, baseline: () => () => number, measured: () => () => number): PairedComparison {
  timeRound(baseline);
  timeRound(measured);
  const b: number[] = [];
  const m: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < rounds; round++) {
    b.push(timeRound(baseline));
    m.push(timeRound(measured));
    ratios.push(m[round] / b[round]);
  }
  return { baseline: quantile(b, 0.5), measured: quantile(m, 0.5), ratio: quantile(ratios, 0.5), ratioLow: quantile(ratios, 0.25), ratioHigh: quantile(ratios, 0.75) };
}
