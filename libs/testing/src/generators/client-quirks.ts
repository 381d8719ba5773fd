import { createRng, type Rng } from '../prng';

/**
 * Rewrites events the way real clients send them: older spellings (`srcIp`, `destIp`), timestamps with a
 * +02:00 offset and nanosecond digits (same instant, to the millisecond), and empty fields meaning "absent".
 * Ingest must read the result exactly like the input.
 */
export function withClientQuirks(events: readonly object[], seed: number | string = 1): Record<string, unknown>[] {
  const rng = createRng(`quirks:${seed}`);
  return events.map((source) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      if ((key === 'srcIP' || key === 'destIP') && rng.chance(0.5)) out[key.replace('IP', 'Ip')] = value;
      else if (key === 'ts' && typeof value === 'string' && rng.chance(0.5)) out.ts = withOffsetAndNanos(value, rng);
      else out[key] = value;
    }
    if (rng.chance(0.3)) out.srcUser = '';
    if (rng.chance(0.2)) out.srcID = '';
    return out;
  });
}

function withOffsetAndNanos(isoUtc: string, rng: Rng): string {
  const ms = Date.parse(isoUtc);
  const local = new Date(ms + 2 * 3_600_000).toISOString(); // wall clock at +02:00, printed with a Z
  return `${local.slice(0, 23)}${rng.string('0123456789', 6)}+02:00`;
}
