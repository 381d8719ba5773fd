/**
 * Snapshot size and timing for a busy engine: `node -r ./tools/register.cjs libs/detection-engine/src/state/snapshot-bench.ts [hosts] [steps]`
 * (defaults 5,000 hosts, 10 one-minute steps of mixed traffic).
 */
import { gzipSync } from 'node:zlib';
import { DetectionEngine } from '../engine';
import { MIXED_TRAFFIC_START, mixedTrafficBatches } from '../testing/mixed-traffic';

function main(): void {
  const hosts = Number(process.argv[2] ?? 5_000);
  const steps = Number(process.argv[3] ?? 10);
  const batches = mixedTrafficBatches({ steps, hosts, seed: 'bench' });
  const events = batches.reduce((n, b) => n + b.events.length, 0);
  const engine = new DetectionEngine({ clock: () => MIXED_TRAFFIC_START });
  let started = performance.now();
  for (const b of batches) engine.process(b);
  const processMs = performance.now() - started;

  started = performance.now();
  const snapshot = engine.snapshot();
  const json = JSON.stringify(snapshot);
  const snapshotMs = performance.now() - started;
  started = performance.now();
  const gzipped = gzipSync(json);
  const gzipMs = performance.now() - started;

  started = performance.now();
  const restored = new DetectionEngine({ clock: () => MIXED_TRAFFIC_START });
  restored.restore(JSON.parse(json));
  const restoreMs = performance.now() - started;

  const parts = Object.entries(snapshot.parts)
    .map(([name, part]) => [name, JSON.stringify(part).length] as const)
    .sort((a, b) => b[1] - a[1]);
  const table = snapshot.parts.events as { e: unknown[] };
  const mb = (n: number) => `${(n / 1e6).toFixed(2)} MB`;
  console.log(`${hosts} hosts, ${steps} min of event time: ${batches.length} batches, ${events} events, processed in ${processMs.toFixed(0)} ms`);
  console.log(`snapshot: ${mb(json.length)} JSON, ${mb(gzipped.length)} gzipped, ${table.e.length} events held`);
  console.log(`snapshot + stringify ${snapshotMs.toFixed(0)} ms, gzip ${gzipMs.toFixed(0)} ms, parse + restore ${restoreMs.toFixed(0)} ms`);
  console.log(`open findings ${restored.stateStats().openFindings}; largest parts: ${parts.slice(0, 6).map(([n, s]) => `${n} ${mb(s)}`).join(', ')}`);
}

main();
