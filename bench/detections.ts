/**
 * Per-event cost of the built-in detection catalogue (DetectionEngine.process, intel included) next to the
 * parse-only baseline (JSON.parse of the same events' NDJSON), measured in the same run.
 */
import { DetectionEngine, IndicatorStore } from '@vigil/detection-engine';
import type { TelemetryBatch, TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { benignDnsEvents, httpEvents, ipEvents, networkResolvers, tlsEvents } from '@vigil/testing';

const BATCH = 500;

const ROUNDS = 7;

/** ns per event of one round: `prepare` (untimed) returns the timed work, which answers how many events it handled. */
function timeRound(prepare: () => () => number): number {
  const run = prepare();
  const started = process.hrtime.bigint();
  const events = run();
  return Number(process.hrtime.bigint() - started) / events;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Median ns per event of the baseline and of the catalogue, their rounds interleaved after a warm-up round of
 * each, so that a slow spell of the machine weighs on both sides alike.
 */
function compare(baseline: () => () => number, catalogue: () => () => number): { baseline: number; catalogue: number } {
  timeRound(baseline);
  timeRound(catalogue);
  const b: number[] = [];
  const c: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    b.push(timeRound(baseline));
    c.push(timeRound(catalogue));
  }
  return { baseline: median(b), catalogue: median(c) };
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
console.log('| events | parse-only baseline | whole catalogue | ratio |');
console.log('|---|---|---|---|');
for (const [type, events] of samples) {
  const lines = events.map((event) => JSON.stringify(event));
  const { baseline, catalogue } = compare(
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
  console.log(`| ${type} (${events.length.toLocaleString()}) | ${Math.round(baseline)} | ${Math.round(catalogue)} | ${(catalogue / baseline).toFixed(1)} |`);
}
