/**
 * Per-event cost of the built-in detection catalogue (DetectionEngine.process, intel included) next to the
 * parse-only baseline (JSON.parse of the same events' NDJSON), measured in the same run.
 */
import { DetectionEngine, IndicatorStore } from '@vigil/detection-engine';
import type { TelemetryBatch, TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { benignDnsEvents, httpEvents, ipEvents, tlsEvents } from '@vigil/testing';

const BATCH = 500;

function nsPerEvent(run: () => number): number {
  run();
  const started = process.hrtime.bigint();
  let events = 0;
  for (let round = 0; round < 3; round++) events += run();
  return Number(process.hrtime.bigint() - started) / events;
}

function batches(type: TelemetryType, events: TelemetryEvent[]): TelemetryBatch[] {
  const out: TelemetryBatch[] = [];
  for (let i = 0; i < events.length; i += BATCH) {
    out.push({ v: 1, workspaceId: 'bench', type, batchId: `${type}-${i}-${Math.random()}`, receivedAt: Date.now(), events: events.slice(i, i + BATCH) });
  }
  return out;
}

const intel = new IndicatorStore();
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
  const baseline = nsPerEvent(() => lines.reduce((n, line) => (JSON.parse(line) ? n + 1 : n), 0));
  const catalogue = nsPerEvent(() => {
    // A fresh engine per round so each round sees first-time state, as new traffic does; batch ids are unique.
    const engine = new DetectionEngine({ intel });
    for (const batch of batches(type, events)) engine.process(batch);
    return events.length;
  });
  console.log(`| ${type} (${events.length.toLocaleString()}) | ${Math.round(baseline)} | ${Math.round(catalogue)} | ${(catalogue / baseline).toFixed(1)} |`);
}
