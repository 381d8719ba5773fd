import type { Rng } from '../prng';

export interface TimelineOptions {
  /** Seed of the generator; the same seed gives the same events. Default 1. */
  seed?: number | string;
  /** Timestamp of the first event. Default 2024-06-10T06:00:00Z. */
  startTs?: Date | number | string;
  /** Mean gap between consecutive events, in milliseconds. Default 50. */
  intervalMs?: number;
}

const DEFAULT_START = Date.parse('2024-06-10T06:00:00Z');

export function toEpochMs(value: Date | number | string | undefined, name: string): number {
  if (value === undefined) return DEFAULT_START;
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new RangeError(`${name} is not a valid time: ${String(value)}`);
  return ms;
}

export function checkInterval(intervalMs: number | undefined, fallback: number): number {
  const value = intervalMs ?? fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`intervalMs must be a non-negative number, got ${value}`);
  return value;
}

/** Random gaps with the given mean, so that timestamps ascend like real traffic does. */
export function timeline(rng: Rng, opts: TimelineOptions): () => string {
  let t = toEpochMs(opts.startTs, 'startTs');
  const mean = checkInterval(opts.intervalMs, 50);
  let first = true;
  return () => {
    if (!first) t += Math.round(rng.exponential(mean));
    first = false;
    return new Date(t).toISOString();
  };
}
