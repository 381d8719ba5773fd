/**
 * What an ingest thread spends per event on a telemetry body — `prepareTelemetry`: split, validate, normalise,
 * pack into bus records, collect the endpoints — next to the parse-only baseline (split + `JSON.parse`) of the
 * same body, measured in the same run in alternating rounds. The bodies are the sustained benchmark's (its
 * network model, 20,000 events each, no `ts`: the gateway stamps the time of receipt).
 *
 *   node -r ./tools/register.cjs bench/ingest-prepare.ts [--rounds 15]
 */
import { gunzipSync } from 'node:zlib';
import type { TelemetryType } from '@vigil/contracts';
import { prepareTelemetry } from '@vigil/gateway';
import { comparePaired } from './paired-rounds';
import { parseOnly } from './run';
import { buildWorkload, TYPE_MIX } from './sustained/workload';

const rounds = Number(process.argv.includes('--rounds') ? process.argv[process.argv.indexOf('--rounds') + 1] : 15);
const workload = buildWorkload({ hosts: 20_000, eventsPerBody: 20_000, bodiesPerType: 2, seed: 1 });

function bodiesOf(type: TelemetryType): Buffer[] {
  return (workload.get(type) ?? []).map((body) => gunzipSync(body.gzip));
}

console.log('\n## Preparing telemetry bodies in an ingest thread, per-event cost (ns/event)\n');
console.log(`| bodies | parse-only baseline | prepareTelemetry | ratio (median of ${rounds} paired rounds) | quartiles |`);
console.log('|---|---|---|---|---|');
for (const [type] of TYPE_MIX) {
  const bodies = bodiesOf(type);
  const { baseline, measured, ratio, ratioLow, ratioHigh } = comparePaired(
    rounds,
    () => () => bodies.reduce((n, body) => n + parseOnly(body), 0),
    () => () => {
      let events = 0;
      for (const body of bodies) {
        const prepared = prepareTelemetry('bench', type, body, Date.now());
        if (!prepared.notJson) events += prepared.accepted;
      }
      return events;
    },
  );
  console.log(`| ${type} (${bodies.length} × 20,000) | ${Math.round(baseline)} | ${Math.round(measured)} | ${ratio.toFixed(2)} | ${ratioLow.toFixed(2)}–${ratioHigh.toFixed(2)} |`);
}
