/**
 * Runs simulated hosts through the per-host DGA decision (dga_volume) and reports, per host, the strongest
 * evidence it ever reached (-log10 p, host-evidence.ts): a host is flagged at a threshold when its strongest
 * evidence reaches it. Used by tools/dga/calibrate-host.ts (benign validation slice) and the evaluation
 * (held-out slice, DGA families through their leave-one-out models).
 */
import type { DnsEvent, TelemetryBatch } from '../../libs/contracts/src';
import { DgaModel } from '../../libs/detection-engine/src/detections/dga/dga-model';
import { createDgaDetector, DgaVolumeDetector } from '../../libs/detection-engine/src/detections/dga/dga-volume';
import { dynamicDnsZoneOf } from '../../libs/detection-engine/src/detections/dga/dynamic-zone';
import { IndicatorStore } from '../../libs/detection-engine/src/intel/indicator-store';
import { observeEvent } from '../../libs/detection-engine/src/observed-event';
import type { PopularitySet } from '../../libs/detection-engine/src/popularity/popularity';
import { longTailTraffic, type LongTailTrafficOptions } from '../../libs/testing/src/generators/benign-long-tail';
import { createRng } from '../../libs/testing/src/prng';

let seedZones: ((hostname: string) => string | undefined) | undefined;

/**
 * A detector that never fires (so windows behave as if unreported) and only records evidence; it reads
 * dynamic DNS zones from the committed intel seed, as the engine's does.
 */
export function measuringDetector(model: DgaModel, popularity?: PopularitySet): DgaVolumeDetector {
  seedZones ??= dynamicDnsZoneOf(new IndicatorStore());
  return createDgaDetector({ model, ...(popularity !== undefined ? { popularity } : {}), dynamicZone: seedZones, minStrength: Number.MAX_VALUE, exactEvidence: true });
}

/** Feeds one host's lookups (its own workspace) and returns the strongest evidence reached. */
export function hostMaxStrength(detector: DgaVolumeDetector, workspaceId: string, events: DnsEvent[]): number {
  const batch: TelemetryBatch = { v: 1, workspaceId, type: 'dns', batchId: workspaceId, receivedAt: Date.parse(events[0]?.ts ?? '2026-11-21T00:00:00Z'), events };
  let max = 0;
  for (let i = 0; i < events.length; i++) {
    const observed = observeEvent(batch, i);
    if (observed === undefined) continue;
    detector.inspect(observed);
    const e = detector.lastEvidence;
    if (e !== undefined && e.strength > max) max = e.strength;
  }
  return max;
}

/**
 * The strongest evidence of every host of a day of long-tail browsing. Each host is its own workspace, so no
 * host's never-seen domains are made familiar by another's lookups: the hardest case for the decision.
 */
export function benignHostStrengths(model: DgaModel, popularity: PopularitySet | undefined, hosts: number, traffic: LongTailTrafficOptions): Float64Array {
  const detector = measuringDetector(model, popularity);
  const out = new Float64Array(hosts);
  let i = 0;
  for (const day of longTailTraffic(hosts, { includePopular: false, ...traffic })) {
    out[i] = hostMaxStrength(detector, `host-${i}`, day.events);
    i++;
  }
  return out;
}

/**
 * One DGA run: `names` looked up by a fresh host at random moments within `spanMs`, amid nothing else.
 * Returns the strongest evidence reached.
 */
export function dgaRunStrength(model: DgaModel, popularity: PopularitySet | undefined, names: string[], seed: string, spanMs = 50_000): number {
  const rng = createRng(seed);
  const start = Date.parse('2026-11-21T10:00:00Z');
  const times = names.map(() => start + rng.int(0, spanMs)).sort((a, b) => a - b);
  const events: DnsEvent[] = names.map((query, i) => ({ ts: new Date(times[i]).toISOString(), srcIP: '10.9.9.9', query, qtype: 'A' }));
  return hostMaxStrength(measuringDetector(model, popularity), `dga-${seed}`, events);
}

/** Hosts at or above `threshold`. */
export function countAtOrAbove(strengths: Float64Array, threshold: number): number {
  let k = 0;
  for (const s of strengths) if (s >= threshold) k++;
  return k;
}
