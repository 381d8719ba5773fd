/**
 * What the telemetry archive costs the embedded store: the sustained workload's bus records, inserted the way the
 * archive consumer inserts them (archive rows by `insertLines` into the archive table), at a fixed rate, for minutes.
 *
 *   node -r ./tools/register.cjs bench/archive-merges.ts [--minutes 5] [--rate-mb 20] [--insert-mb 8] [--layout 1]
 *
 * --rate-mb: MB of records per second; --insert-mb: MB per insert (the consumer sends up to 8); --layout 1: the
 * table as migration 1 made it (no merge settings, ZSTD(3)), fed as the consumer of that time fed it (each record
 * verbatim into `telemetry.incoming`, whose view parsed the columns out), to compare with the current one. Prints every 30 s the
 * MB archived, the cores busy in merges, in the engine's other threads and in Node.js, RSS, active parts and size on
 * disk; then merge and other engine CPU seconds per GB archived and peak RSS. Run it alone on the machine.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { TelemetryEvent } from '@vigil/contracts';
import { packTelemetryRecords } from '@vigil/gateway';
import { ChdbStoreFactory, type ServiceStore } from '@vigil/store';
import { archiveRowOf } from '../libs/telemetry-archive/src/archive-row';
import { ARCHIVE_TABLE, TELEMETRY_MIGRATIONS } from '../libs/telemetry-archive/src/migrations';
import { cpuOf, rssOf, type CpuSeconds } from './sustained/sampler';
import { buildWorkload } from './sustained/workload';

interface Options {
  minutes: number;
  rateBytesPerSecond: number;
  insertBytes: number;
  layout: 'current' | '1';
}

function parseOptions(argv: string[]): Options {
  const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  return {
    minutes: Number(value('--minutes') ?? 5),
    rateBytesPerSecond: Number(value('--rate-mb') ?? 20) * 1e6,
    insertBytes: Number(value('--insert-mb') ?? 8) * 1e6,
    layout: value('--layout') === '1' ? '1' : 'current',
  };
}

/** Each record's events as serialized by the gateway (`"events":[…]}`); a fresh header makes every insert new. */
function recordTails(): { type: string; tail: string; events: number }[] {
  const workload = buildWorkload({ hosts: 20_000, eventsPerBody: 20_000, bodiesPerType: 2, seed: 1 });
  const tails: { type: string; tail: string; events: number }[] = [];
  for (const [type, bodies] of workload) {
    for (const body of bodies) {
      const events = gunzipSync(body.gzip).toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as TelemetryEvent);
      for (const record of packTelemetryRecords('ws-bench', type, events, 0)) {
        const value = record.value.toString('utf8');
        tails.push({ type, tail: value.slice(value.indexOf('"events":')), events: Number(record.headers?.events) });
      }
    }
  }
  return tails;
}

const MB = 1024 * 1024;
const NEWLINE = Buffer.from('\n');
const cores = (from: CpuSeconds, to: CpuSeconds, key: keyof CpuSeconds, seconds: number) => ((to[key] - from[key]) / seconds).toFixed(2);

async function activeParts(store: ServiceStore): Promise<{ parts: number; bytes: number }> {
  const result = await store.client.query({
    query: "SELECT count() AS parts, sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = 'telemetry' AND (table = 'batches' OR startsWith(table, 'batches_v')) AND active",
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ parts: string | number; bytes: string | number }>();
  return { parts: Number(row.parts), bytes: Number(row.bytes) };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const tails = recordTails();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vigil-archive-bench-'));
  const factory = new ChdbStoreFactory(dir);
  try {
    const migrations = options.layout === '1' ? TELEMETRY_MIGRATIONS.filter((m) => m.version === 1) : TELEMETRY_MIGRATIONS;
    const store = await factory.open('telemetry', migrations);
    console.log(`# Telemetry archive: layout ${options.layout}, ${options.rateBytesPerSecond / 1e6} MB/s in inserts of ${options.insertBytes / 1e6} MB, ${options.minutes} min`);
    console.log('| minute | MB archived | cores: merges | cores: other engine threads | cores: Node.js | RSS MB | active parts | on disk MB |\n|---|---|---|---|---|---|---|---|');
    const started = Date.now();
    const first = cpuOf(process.pid);
    let last = { at: started, cpu: first };
    let sent = 0;
    let next = 0;
    let peakRss = 0;
    const rssTimer = setInterval(() => (peakRss = Math.max(peakRss, rssOf(process.pid))), 1000);
    let reportDue = started + 30_000;
    while (Date.now() - started < options.minutes * 60_000) {
      const lines: Buffer[] = [];
      let bytes = 0;
      while (bytes < options.insertBytes) {
        const { type, tail, events } = tails[next % tails.length];
        const receivedAt = Date.now();
        const batchId = `b${next}`;
        const value = Buffer.from(`{"v":1,"workspaceId":"ws-bench","type":"${type}","batchId":"${batchId}","receivedAt":${receivedAt},${tail}`);
        next++;
        const line = options.layout === '1' ? [value, NEWLINE] : archiveRowOf({ key: 'ws-bench|10.0.0.1', value, headers: { type, batchId, receivedAt: String(receivedAt), events: String(events) } });
        lines.push(...line);
        bytes += line.reduce((n, part) => n + part.length, 0);
      }
      const body = Buffer.concat(lines);
      await store.insertLines(options.layout === '1' ? 'telemetry.incoming' : ARCHIVE_TABLE, body);
      sent += body.length;
      const due = started + (sent / options.rateBytesPerSecond) * 1000;
      if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
      if (Date.now() >= reportDue) {
        const now = { at: Date.now(), cpu: cpuOf(process.pid) };
        const seconds = (now.at - last.at) / 1000;
        const { parts, bytes: onDisk } = await activeParts(store);
        console.log(
          `| ${((now.at - started) / 60_000).toFixed(1)} | ${(sent / MB).toFixed(0)} | ${cores(last.cpu, now.cpu, 'merges', seconds)} | ${cores(last.cpu, now.cpu, 'other', seconds)} | ${cores(last.cpu, now.cpu, 'node', seconds)} | ${(rssOf(process.pid) / MB).toFixed(0)} | ${parts} | ${(onDisk / MB).toFixed(0)} |`,
        );
        last = now;
        reportDue += 30_000;
      }
    }
    clearInterval(rssTimer);
    const end = cpuOf(process.pid);
    const gb = sent / 1e9;
    console.log(`\n| figure | value |\n|---|---|`);
    console.log(`| archived | ${gb.toFixed(2)} GB in ${options.minutes} min |`);
    console.log(`| merge CPU per GB archived | ${((end.merges - first.merges) / gb).toFixed(1)} s |`);
    console.log(`| other engine CPU per GB archived (inserts) | ${((end.other - first.other) / gb).toFixed(1)} s |`);
    console.log(`| on disk per GB archived | ${((await activeParts(store)).bytes / MB / gb).toFixed(0)} MB |`);
    console.log(`| peak RSS (sampled every second) | ${(peakRss / MB).toFixed(0)} MB |`);
  } finally {
    await factory.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
