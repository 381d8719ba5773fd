/**
 * Per-event cost of the built-in detection catalogue (DetectionEngine.process, intel included) next to the
 * parse-only baseline (JSON.parse of the same events' NDJSON), measured in the same run.
 */
import { DetectionEngine, IndicatorStore } from '@vigil/detection-engine';
import type { TelemetryBatch, TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { benignDnsEvents, httpEvents, ipEvents, networkResolvers, tlsEvents } from '@vigil/testing';

const BATCH = 500;

const ROUNDS = 21;

/** ns per event of one round: `prepare` (untimed) returns the timed work, which answers how many events it handled. */
function timeRound(prepare: () => () => number): number {
  const run = prepare();
  const started = process.hrtime.bigint();
  const events = run();
  return Number(process.hrtime.bigint() - started) / events;
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

interface Comparison {
  /** Median ns per event of each side. */
  baseline: number;
  catalogue: number;
  /** The median and quartiles of the per-round ratios. */
  ratio: number;
  ratioLow: number;
  ratioHigh: number;
}

/**
 * Baseline and catalogue rounds alternate after a warm-up round of each; each catalogue round is divided by the
 * baseline round just before it. The machine's speed drifts (other tenants, caches), and a ratio of neighbouring
 * rounds cancels most of that drift where a ratio of two medians would not.
 */
function compare(baseline: () => () => number, catalogue: () => () => number): Comparison {
  timeRound(baseline);
  timeRound(catalogue);
  const b: number[] = [];
  const c: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    b.push(timeRound(baseline));
    c.push(timeRound(catalogue));
    ratios.push(c[round] / b[round]);
  }
  return { baseline: quantile(b, 0.5), catalogue: quantile(c, 0.5), ratio: quantile(ratios, 0.5), ratioLow: quantile(ratios, 0.25), ratioHigh: quantile(ratios, 0.75) };
}

function batches(type: TelemetryType, events: TelemetryEvent[]): TelemetryBatch[] {
  const out: TelemetryBatch[] = [];
  for (let i = 0; i < events.length; i += BATCH) {
    out.push({ v: 1, workspaceId: 'bench', type, batchId: `${type}-${i}-${Math.random()}`, receivedAt: Date.now(), events: events.slice(i, i + BATCH) });
  }
  return out;
}

const intel = new IndicatorStore();
// The generated network's hosts ask its own resolvers, which forward to public ones; a deployment names its
// resolvers (VIGIL_DNS_RESOLVERS), without which every forwarded query would be a resolver-bypass alert.
const configuredResolvers = networkResolvers();
const samples: [TelemetryType, TelemetryEvent[]][] = [
  ['dns', benignDnsEvents(20_000, { hosts: 200 })],
  ['ip', ipEvents(20_000, { hosts: 200 })],
  ['http', httpEvents(10_000, { hosts: 200 })],
  ['tls', tlsEvents(10_000, { hosts: 200 })],
];

console.log('\n## Detection catalogue, per-event cost (ns/event)\n');
console.log(`| events | parse-only baseline | whole catalogue | ratio (median of ${ROUNDS} paired rounds) | quartiles |`);
console.log('|---|---|---|---|---|');
for (const [type, events] of samples) {
  const lines = events.map((event) => JSON.stringify(event));
  const { baseline, catalogue, ratio, ratioLow, ratioHigh } = compare(
    () => () => lines.reduce((n, line) => (JSON.parse(line) ? n + 1 : n), 0),
    () => {
      // A fresh engine per round (built before the clock starts) so each round sees first-time state, as new
      // traffic does; batch ids are unique.
      const engine = new DetectionEngine({ intel, configuredResolvers });
      const typeBatches = batches(type, events);
      return () => {
        for (const batch of typeBatches) engine.process(batch);
        return events.length;
      };
    },
  );
  console.log(`| ${type} (${events.length.toLocaleString()}) | ${Math.round(baseline)} | ${Math.round(catalogue)} | ${ratio.toFixed(2)} | ${ratioLow.toFixed(2)}–${ratioHigh.toFixed(2)} |`);
}
