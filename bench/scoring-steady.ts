/**
 * Steady-state scoring cost: what one scoring thread does per event once its state is full. The engines of one
 * thread (`--partitions`, sharing a `--budget-mb` state budget, as the all-in-one gives each thread) are fed the
 * sustained workload (bench/sustained/workload.ts: 20,000 hosts, Zipf destinations and names) as the bus hands
 * it over: one JSON record per partition per body, parsed and scored. The baseline is `JSON.parse` of the very
 * same records, timed just before each body is scored, so a slow spell of the machine weighs on both alike.
 *
 * Usage: node -r ./tools/register.cjs bench/scoring-steady.ts [--seconds 60] [--partitions 6] [--budget-mb 32]
 * Prints one row per 10 s (ns/event of scoring and of the baseline, their ratio) and the medians; compare two
 * builds by running it on each in turn (the first row, while state fills, is left out of the medians). At the
 * end, per detection: the keys and estimated bytes it holds under the budget and the keys evicted from it.
 */
import { gunzipSync } from 'node:zlib';
import { DetectionEngine, IndicatorStore, StateBudget } from '@vigil/detection-engine';
import { createRng } from '@vigil/testing';
import type { TelemetryType } from '@vigil/contracts';
import { buildWorkload, TYPE_MIX } from './sustained/workload';

const ROW_MS = 10_000;

interface Options {
  seconds: number;
  partitions: number;
  budgetMb: number;
}

function parseOptions(argv: string[]): Options {
  const value = (flag: string, fallback: number): number => {
    const at = argv.indexOf(flag);
    const parsed = at < 0 ? fallback : Number(argv[at + 1]);
    if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${flag} needs a positive number`);
    return parsed;
  };
  return { seconds: value('--seconds', 60), partitions: value('--partitions', 6), budgetMb: value('--budget-mb', 32) };
}

/** A stable partition per source address, as the bus's key hashing gives each host one partition. */
function partitionOf(srcIP: string, partitions: number): number {
  let hash = 0;
  for (let i = 0; i < srcIP.length; i++) hash = (hash * 31 + srcIP.charCodeAt(i)) | 0;
  return Math.abs(hash) % partitions;
}

function cpuMicros(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return used.user + used.system;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function main(): void {
  const options = parseOptions(process.argv.slice(2));
  const workload = buildWorkload({ hosts: 20_000, eventsPerBody: 20_000, bodiesPerType: 8, seed: 1 });
  const bodies = new Map<TelemetryType, { srcIP: string }[][]>();
  for (const [type, list] of workload) {
    bodies.set(type, list.map((body) => gunzipSync(body.gzip).toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))));
  }
  const intel = new IndicatorStore();
  const budget = new StateBudget({ capacityBytes: options.budgetMb * 1024 * 1024 });
  const engines = Array.from({ length: options.partitions }, () => new DetectionEngine({ intel, stateBudget: budget }));
  const rng = createRng('scoring-steady');

  console.log(`\n## Steady-state scoring, one thread: ${options.partitions} partitions, ${options.budgetMb} MB budget, ${options.seconds} s\n`);
  console.log('| seconds | scoring ns/event | JSON.parse ns/event | ratio |');
  console.log('|---|---|---|---|');
  const rows: { scoring: number; parse: number }[] = [];
  let batchSeq = 0;
  let scoringMicros = 0;
  let parseMicros = 0;
  let events = 0;
  const started = Date.now();
  let rowEnds = started + ROW_MS;
  while (Date.now() - started < options.seconds * 1000) {
    const type = rng.weighted(TYPE_MIX);
    const list = bodies.get(type)!;
    const body = list[rng.int(0, list.length - 1)];
    const byPartition: object[][] = Array.from({ length: options.partitions }, () => []);
    for (const event of body) byPartition[partitionOf(event.srcIP, options.partitions)].push(event);
    const records = byPartition.map((partitionEvents) =>
      Buffer.from(JSON.stringify({ v: 1, workspaceId: 'ws-bench', type, batchId: `b${batchSeq++}`, receivedAt: Date.now(), events: partitionEvents })),
    );

    let since = process.cpuUsage();
    for (const record of records) JSON.parse(record.toString('utf8'));
    parseMicros += cpuMicros(since);
    since = process.cpuUsage();
    for (let p = 0; p < options.partitions; p++) engines[p].process(JSON.parse(records[p].toString('utf8')));
    scoringMicros += cpuMicros(since);
    events += body.length;

    if (Date.now() >= rowEnds) {
      const row = { scoring: (scoringMicros / events) * 1000, parse: (parseMicros / events) * 1000 };
      rows.push(row);
      console.log(`| ${Math.round((Date.now() - started) / 1000)} | ${Math.round(row.scoring)} | ${Math.round(row.parse)} | ${(row.scoring / row.parse).toFixed(1)} |`);
      scoringMicros = 0;
      parseMicros = 0;
      events = 0;
      rowEnds += ROW_MS;
    }
  }
  const settled = rows.slice(1);
  if (settled.length === 0) throw new Error('run for at least two rows (--seconds 20 or more)');
  const scoring = median(settled.map((r) => r.scoring));
  const parse = median(settled.map((r) => r.parse));
  console.log(`\nMedian of ${settled.length} rows after the first: scoring ${Math.round(scoring)} ns/event, JSON.parse ${Math.round(parse)} ns/event, ratio ${(scoring / parse).toFixed(1)}`);
  console.log(`Last row / first settled row, scoring cost: ${(settled[settled.length - 1].scoring / settled[0].scoring).toFixed(2)} (above 1: cost grows as state ages)`);
  printStateUsage(budget);
}

function printStateUsage(budget: StateBudget): void {
  console.log('\n| detection | keys | estimated MB | bytes per key | keys evicted |');
  console.log('|---|---|---|---|---|');
  const parts = Object.entries(budget.usage()).sort((a, b) => b[1].bytes - a[1].bytes);
  for (const [part, usage] of parts) {
    if (usage.keys === 0 && usage.evictions === 0) continue;
    const perKey = usage.keys === 0 ? '-' : String(Math.round(usage.bytes / usage.keys));
    console.log(`| ${part} | ${usage.keys.toLocaleString()} | ${(usage.bytes / 1e6).toFixed(1)} | ${perKey} | ${usage.evictions.toLocaleString()} |`);
  }
}

main();
