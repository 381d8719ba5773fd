/**
 * Throughput of the ingest hot path on a 10 MB NDJSON body of DNS events, next to a bare
 * `indexOf('\n')` + `JSON.parse` baseline.
 * Run: node --expose-gc -r ./tools/register.cjs libs/ingest/src/parse-batch.bench.ts
 */
import { parseTelemetryBatch } from './parse-batch';
import { splitJsonObjects } from './split';

const TEN_MB = 10 * 1024 * 1024;
const ROUNDS = 9;
const WARM_UP_ROUNDS = 3;

function dnsBody(): { body: Buffer; events: number } {
  const qtypes = ['A', 'AAAA', 'TXT', 'MX', 'HTTPS'];
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; ; i++) {
    const line = JSON.stringify({
      // A distinct timestamp per event (no help from the last-value cache), with an offset and nanoseconds.
      ts: new Date(Date.UTC(2024, 4, 1, 12) + i * 7).toISOString().replace('Z', '456789+02:00'),
      srcIP: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      srcPort: 1024 + (i % 60000),
      srcHost: `workstation-${i % 500}`,
      query: `${i.toString(36)}.cdn${i % 97}.example.com`,
      qtype: qtypes[i % qtypes.length],
    });
    if (size + line.length + 1 > TEN_MB) break;
    lines.push(line);
    size += line.length + 1;
  }
  return { body: Buffer.from(lines.join('\n') + '\n'), events: lines.length };
}

/** The bare minimum: split lines, JSON.parse each, keep the values (as any real consumer must). */
function baseline(body: Buffer): number {
  const text = body.toString('utf8');
  const values: unknown[] = [];
  let pos = 0;
  while (pos < text.length) {
    let end = text.indexOf('\n', pos);
    if (end === -1) end = text.length;
    if (end > pos) values.push(JSON.parse(text.slice(pos, end)));
    pos = end + 1;
  }
  return values.length;
}

/** The same, dropping each value at once: flatters JSON.parse, since short-lived objects cost the GC nothing. */
function baselineDiscarding(body: Buffer): number {
  const text = body.toString('utf8');
  let count = 0;
  let pos = 0;
  while (pos < text.length) {
    let end = text.indexOf('\n', pos);
    if (end === -1) end = text.length;
    if (end > pos) {
      JSON.parse(text.slice(pos, end));
      count++;
    }
    pos = end + 1;
  }
  return count;
}

function splitOnly(body: Buffer): number {
  const values: unknown[] = [];
  for (const item of splitJsonObjects(body)) if (item.ok) values.push(item.value);
  return values.length;
}

function fullPipeline(body: Buffer): number {
  return parseTelemetryBatch('dns', body, new Date()).events.length;
}

function concatenated(body: Buffer): Buffer {
  return Buffer.from(body.toString('utf8').replace(/\n/g, ''));
}

const collectGarbage: () => void = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

interface Candidate {
  name: string;
  run: (body: Buffer) => number;
  body: Buffer;
}

/** Warms every candidate up, then runs them interleaved (so machine noise hits all alike); median per candidate. */
function measureAll(candidates: Candidate[], expected: number): Map<string, number> {
  const times = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  for (let round = -WARM_UP_ROUNDS; round < ROUNDS; round++) {
    for (const { name, run, body } of candidates) {
      collectGarbage(); // each run starts from the same, clean heap
      // CPU time of the process rather than wall time: the machine is shared, and waiting for a core is not
      // work. (It includes V8's helper threads, i.e. parallel GC: that is real cost.)
      const started = process.cpuUsage();
      const count = run(body);
      const used = process.cpuUsage(started);
      const elapsed = (used.user + used.system) / 1000;
      if (count !== expected) throw new Error(`${name}: ${count} events, expected ${expected}`);
      if (round >= 0) times.get(name)!.push(elapsed);
    }
  }
  const perSecond = new Map<string, number>();
  for (const { name } of candidates) {
    const sorted = times.get(name)!.sort((x, y) => x - y);
    const median = sorted[Math.floor(sorted.length / 2)];
    perSecond.set(name, Math.round((expected / median) * 1000));
    console.log(`${name.padEnd(48)} ${median.toFixed(1).padStart(7)} ms  ${perSecond.get(name)!.toLocaleString('en').padStart(10)} events/s`);
  }
  return perSecond;
}

const { body, events } = dnsBody();
if (!(globalThis as { gc?: unknown }).gc) console.log('(run with --expose-gc for steadier numbers)');
console.log(`body: ${(body.length / 1024 / 1024).toFixed(2)} MiB, ${events} DNS events, median CPU time of ${ROUNDS} interleaved rounds\n`);
const results = measureAll(
  [
    { name: 'baseline: indexOf + JSON.parse, values dropped', run: baselineDiscarding, body },
    { name: 'baseline: indexOf + JSON.parse, values kept', run: baseline, body },
    { name: 'splitJsonObjects, NDJSON (fast path)', run: splitOnly, body },
    { name: 'splitJsonObjects, concatenated (scanner)', run: splitOnly, body: concatenated(body) },
    { name: 'parseTelemetryBatch, NDJSON', run: fullPipeline, body },
    { name: 'parseTelemetryBatch, concatenated', run: fullPipeline, body: concatenated(body) },
  ],
  events,
);
const full = results.get('parseTelemetryBatch, NDJSON')!;
for (const base of ['baseline: indexOf + JSON.parse, values dropped', 'baseline: indexOf + JSON.parse, values kept']) {
  console.log(`parseTelemetryBatch NDJSON / ${base.slice(10)}: ${((full / results.get(base)!) * 100).toFixed(0)} %`);
}
