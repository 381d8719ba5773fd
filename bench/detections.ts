/**
 * Per-event cost of the built-in detection catalogue (DetectionEngine.process, intel included) next to the
 * parse-only baseline (JSON.parse of the same events' NDJSON), measured in the same run.
 */
import { DetectionEngine, IndicatorStore } from '@vigil/detection-engine';
import type { TelemetryBatch, TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { benignDnsEvents, httpEvents, ipEvents, networkResolvers, tlsEvents } from '@vigil/testing';
import { comparePaired } from './paired-rounds';

const BATCH = 500;

const ROUNDS = 21;

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
  const { baseline, measured: catalogue, ratio, ratioLow, ratioHigh } = comparePaired(
    ROUNDS,
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
