/**
 * `npm run bench` (sustained): a fleet of sensors posting without pause to the embedded all-in-one for minutes,
 * the way Vigil is used — does throughput stay flat and memory bounded as detection state grows?
 *
 *   node -r ./tools/register.cjs bench/sustained.ts [--minutes 10] [--clients 2] [--hosts 20000]
 *        [--row-seconds 60] [--probe-seconds 15] [--profile <dir>] [--keep-data] [--env NAME=VALUE ...] [--node-arg FLAG ...] [--server-log FILE] [--split]
 *
 * Prints one row per interval (accepted and scored events/s, scoring lag, RSS, heap, detection state, evictions,
 * cores busy by thread group: Node.js, ClickHouse merges, other threads such as the embedded store's inserts and queries,
 * and the CPU time of a fixed reference work in a child process: the machine's own speed at that minute),
 * then: the parse-only baseline of the same bodies measured in the same run and the ratio to it, the last/first
 * throughput ratio (last third of the run against the first third), peak RSS, the p95 time from 200 to a visible
 * finding for malicious hosts planted every 15 s under load (--probe-seconds: more often, for short runs), whether every one was detected, whether every
 * accepted event was scored, and the p50/p99 of GET /v1/account/status polled every 200 ms during the run. --profile writes a V8 CPU profile of the server into <dir>;
 * --keep-data keeps the all-in-one's data directory (otherwise removed after the run) and prints where it is.
 * --node-arg passes a Node.js or V8 flag to the all-in-one (e.g. `--node-arg --v8-pool-size=2`), to compare runtime settings;
 * --server-log appends the all-in-one's own output to a file (e.g. with `--node-arg --trace-gc`).
 *
 * --split runs the same load against the split deployment (Kafka, Redis, 2 gateways, findings-api, account and
 * rules as separate processes) twice, for --minutes each: with 2 scoring engines, then with 1 (a fresh cluster
 * each time), and reports the scored events/s of each and the scale-out ratio 2/1.
 */
import { availableParallelism } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { loadConfig } from '@vigil/config';
import { TOPICS, type TelemetryType } from '@vigil/contracts';
import { parseOnly, percentile } from './run';
import { startAllInOne, startSplit, type Deployment } from './sustained/deployment';
import { Fleet, type FleetCounters } from './sustained/fleet';
import { bucketsBetween, quantileOf } from './sustained/histogram';
import { MaliciousHostProbes, type ProbeResult } from './sustained/probes';
import { ReferenceWork } from './sustained/reference-work';
import { sample, totalRss, type NodeThreadGroup, type Sample } from './sustained/sampler';
import { StatusPoller } from './sustained/status-poller';
import { buildWorkload, type Body } from './sustained/workload';

interface Options {
  minutes: number;
  clients: number;
  hosts: number;
  rowSeconds: number;
  probeSeconds: number;
  profileDir?: string;
  keepData: boolean;
  env: Record<string, string>;
  nodeArgs: string[];
  serverLog?: string;
  split: boolean;
}

function parseOptions(argv: string[]): Options {
  const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const env: Record<string, string> = {};
  const nodeArgs: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--env') {
      const [name, ...rest] = argv[i + 1].split('=');
      env[name] = rest.join('=');
    }
    if (arg === '--node-arg') nodeArgs.push(argv[i + 1]);
  });
  return {
    minutes: Number(value('--minutes') ?? 10),
    clients: Number(value('--clients') ?? 2),
    hosts: Number(value('--hosts') ?? 20_000),
    rowSeconds: Number(value('--row-seconds') ?? 60),
    probeSeconds: Number(value('--probe-seconds') ?? 15),
    profileDir: value('--profile'),
    keepData: argv.includes('--keep-data'),
    env,
    nodeArgs,
    serverLog: value('--server-log'),
    split: argv.includes('--split'),
  };
}

const MB = 1024 * 1024;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
/** Split deployment: gateways; the scoring engines of the measured run and of the reference run. */
const SPLIT_GATEWAYS = 2;
const SPLIT_ENGINES = [2, 1] as const;

/** Events/s of one thread parsing every body, in each of the two ways below. */
interface ParseBaseline {
  /** split + JSON.parse of the decompressed bodies: the baseline of issue 10's ratio. */
  parse: number;
  /** gunzip + split + JSON.parse: what earlier records of this bench compared with. */
  gunzipAndParse: number;
}

/** Single-thread parse of every body, each way repeated for at least `seconds`; the bodies are decompressed once beforehand for `parse`. */
function parseBaseline(bodies: Body[], seconds: number): ParseBaseline {
  const rateOf = (parseAll: () => number) => {
    const started = performance.now();
    let events = 0;
    while (performance.now() - started < seconds * 1000) events += parseAll();
    return events / ((performance.now() - started) / 1000);
  };
  const decompressed = bodies.map((body) => gunzipSync(body.gzip));
  return {
    parse: rateOf(() => decompressed.reduce((n, text) => n + parseOnly(text), 0)),
    gunzipAndParse: rateOf(() => bodies.reduce((n, body) => n + parseOnly(gunzipSync(body.gzip)), 0)),
  };
}

function rate(from: Sample, to: Sample, field: 'accepted' | 'scored' | 'findingRecords'): number {
  return (to[field] - from[field]) / ((to.atMs - from.atMs) / 1000);
}

/** What one run of the load measured, before the parse baseline is known. */
interface LoadResult {
  samples: Sample[];
  /** The last sample while the fleet was posting. */
  stopped: Sample;
  drained: Sample;
  peakRss: number;
  /** The sample with the highest RSS: what the memory was made of then. */
  peakSample: Sample;
  probes: ProbeResult[];
  statusLatenciesMs: number[];
  fleet: FleetCounters;
  /** referenceWorkCpuMs() once per row, in order. */
  referenceCpuMs: number[];
}

/** Cores busy between two samples, by thread group (sampler.ts: CpuSeconds): "node 1.62 · other 0.21 · merges 0.10". */
function coresBusy(from: Sample, to: Sample): string {
  const seconds = (to.atMs - from.atMs) / 1000;
  const busy = (a: number, b: number) => ((b - a) / seconds).toFixed(2);
  return `node ${busy(from.cpuSeconds.node, to.cpuSeconds.node)} · other ${busy(from.cpuSeconds.other, to.cpuSeconds.other)} · merges ${busy(from.cpuSeconds.merges, to.cpuSeconds.merges)}`;
}

/** What each group of Node.js threads is, by the nice values the all-in-one was given (config: VIGIL_SCORING_NICE, VIGIL_INGEST_NICE). */
function nodeThreadRoles(env: Record<string, string>): Map<NodeThreadGroup, string> {
  // The all-in-one inherits this process's environment (startVigil), with the bench's --env on top.
  const config = loadConfig({ ...process.env, ...env });
  const roles = new Map<NodeThreadGroup, string[]>([['main', ['main thread']]]);
  const add = (nice: number, role: string) => roles.set(`nice ${nice}`, [...(roles.get(`nice ${nice}`) ?? []), role]);
  // loadConfig always sets both (with their defaults); the fields are optional only for hand-built configurations.
  add(config.scoringNice ?? 0, 'scoring threads');
  add(config.ingestNice ?? 0, 'ingest threads');
  add(0, 'V8 and libuv helpers');
  return new Map([...roles].map(([group, names]) => [group, `${names.join(' + ')}${group === 'main' ? '' : ` (${group})`}`]));
}

/** Cores busy between two samples by group of Node.js threads: "main thread 0.16 · scoring threads (nice 10) 0.82 · …". */
function nodeCoresBusy(from: Sample, to: Sample, roles: Map<NodeThreadGroup, string>): string {
  const seconds = (to.atMs - from.atMs) / 1000;
  return [...to.nodeCpuSeconds]
    .map(([group, cpu]) => ({ group, cores: (cpu - (from.nodeCpuSeconds.get(group) ?? 0)) / seconds }))
    .filter((g) => g.cores >= 0.005)
    .sort((a, b) => b.cores - a.cores)
    .map((g) => `${roles.get(g.group) ?? g.group} ${g.cores.toFixed(2)}`)
    .join(' · ');
}

const mbOf = (bytes: number | undefined) => (bytes === undefined ? '–' : (bytes / MB).toFixed(0));

/** Per-role RSS, for a deployment of several processes: "ingest-gateway 300 · scoring-engine 900 · …". */
const engineActivity = (s: Sample) =>
  s.storeActivityBytes === undefined ? '' : ` (merges ${mbOf(s.storeActivityBytes.merges)}, inserts ${mbOf(s.storeActivityBytes.inserts)}, queries ${mbOf(s.storeActivityBytes.queries)})`;
const rolesOf = (s: Sample) => [...s.rssByRole].map(([role, bytes]) => `${role} ${mbOf(bytes)}`).join(' · ');

/** Runs the fleet, probes and status poller against `deployment` for `options.minutes`, printing a row per interval, then drains. */
async function runLoad(deployment: Deployment, options: Options, workload: Map<TelemetryType, Body[]>): Promise<LoadResult> {
  const perRole = deployment.processes.length > 1;
  const started = Date.now();
  const fleet = new Fleet(deployment.gateways, workload);
  const probes = new MaliciousHostProbes(deployment.probes, started);
  const status = new StatusPoller(deployment.status);
  const samples: Sample[] = [await sample(deployment.processes, started)];
  let peakRss = 0;
  let peakSample = samples[0];
  const reference = ReferenceWork.start();
  const referenceCpuMs: number[] = [];
  try {
    fleet.start(Math.max(options.clients, deployment.gateways.length));
    probes.start(options.probeSeconds * 1000);
    status.start(200);
    console.log(`| minute | accepted ev/s | scored ev/s | finding records/s | scoring lag (events) | RSS MB | heap used MB (main) | heap used MB (scoring threads) | external MB | store engine MB | state MB | evictions | cores busy | reference work CPU ms |${perRole ? ' RSS MB by role |' : ''}`);
    console.log(`|---|---|---|---|---|---|---|---|---|---|---|---|---|---|${perRole ? '---|' : ''}`);
    const end = started + options.minutes * 60_000;
    let rowStart = samples[0];
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 5000));
      peakRss = Math.max(peakRss, totalRss(deployment.processes));
      const now = await sample(deployment.processes, started);
      samples.push(now);
      if (now.rssBytes > peakSample.rssBytes) peakSample = now;
      if (now.atMs - rowStart.atMs >= options.rowSeconds * 1000 - 2500) {
        const state = now.stateBytes === undefined ? '–' : (now.stateBytes / MB).toFixed(0);
        const evictions = now.evictions === undefined ? '–' : fmt(now.evictions);
        const referenceMs = await reference.measure();
        referenceCpuMs.push(referenceMs);
        console.log(
          `| ${(now.atMs / 60_000).toFixed(1)} | ${fmt(rate(rowStart, now, 'accepted'))} | ${fmt(rate(rowStart, now, 'scored'))} | ${fmt(rate(rowStart, now, 'findingRecords'))} | ${fmt(now.accepted - now.scored)} | ${(now.rssBytes / MB).toFixed(0)} | ${(now.heapUsedBytes / MB).toFixed(0)} | ${mbOf(now.threadHeapUsedBytes)} | ${mbOf(now.externalBytes)} | ${mbOf(now.storeEngineBytes)} | ${state} | ${evictions} | ${coresBusy(rowStart, now)} | ${referenceMs.toFixed(0)} |${perRole ? ` ${rolesOf(now)} |` : ''}`,
        );
        rowStart = now;
      }
    }
    await fleet.stop();
    await probes.stop();
    await status.stop();
    const stopped = samples[samples.length - 1];
    // Drain: every accepted event must be scored.
    let drained = await sample(deployment.processes, started);
    const drainDeadline = Date.now() + 180_000;
    while (drained.scored < drained.accepted && Date.now() < drainDeadline) {
      await new Promise((r) => setTimeout(r, 2000));
      drained = await sample(deployment.processes, started);
    }
    return { samples, stopped, drained, peakRss, peakSample, probes: probes.results, statusLatenciesMs: status.latenciesMs, fleet: fleet.counters, referenceCpuMs };
  } finally {
    reference.stop();
    await fleet.stop().catch(() => undefined);
  }
}

const overallScored = (r: LoadResult) => rate(r.samples[0], r.stopped, 'scored');

function printSummary(result: LoadResult, baseline: ParseBaseline, roles: Map<NodeThreadGroup, string>): void {
  const { samples, stopped, drained, peakRss, peakSample } = result;
  const third = Math.max(1, Math.floor(samples.length / 3));
  const first = rate(samples[0], samples[third], 'scored');
  const last = rate(samples[samples.length - 1 - third], stopped, 'scored');
  const overall = overallScored(result);
  const latencies = result.probes.flatMap((p) => (p.latencyMs === undefined ? [] : [p.latencyMs]));
  const missed = result.probes.filter((p) => p.latencyMs === undefined).map((p) => p.host);
  console.log(`| figure | value |\n|---|---|`);
  console.log(`| scored events/s over the run | ${fmt(overall)} |`);
  console.log(`| parse-only baseline (split + JSON.parse of the decompressed bodies, one thread) | ${fmt(baseline.parse)} |`);
  console.log(`| ratio scored / baseline | ${(overall / baseline.parse).toFixed(3)} |`);
  console.log(`| the same with gunzip in the baseline (gunzip + split + JSON.parse), and the ratio | ${fmt(baseline.gunzipAndParse)}; ${(overall / baseline.gunzipAndParse).toFixed(3)} |`);
  console.log(`| first third → last third scored events/s | ${fmt(first)} → ${fmt(last)} (last/first ${(last / first).toFixed(2)}) |`);
  console.log(`| cores busy, first third → last third | ${coresBusy(samples[0], samples[third])} → ${coresBusy(samples[samples.length - 1 - third], stopped)} |`);
  console.log(`| Node.js cores busy by thread, first third → last third | ${nodeCoresBusy(samples[0], samples[third], roles)} → ${nodeCoresBusy(samples[samples.length - 1 - third], stopped, roles)} |`);
  const rows = result.referenceCpuMs;
  const thirdOfRows = Math.max(1, Math.floor(rows.length / 3));
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  if (rows.length > 0) {
    console.log(`| reference work CPU ms (machine speed; higher is slower), first third → last third of rows | ${mean(rows.slice(0, thirdOfRows)).toFixed(0)} → ${mean(rows.slice(-thirdOfRows)).toFixed(0)} |`);
  }
  console.log(`| peak RSS | ${(peakRss / MB).toFixed(0)} MB |`);
  console.log(
    `| largest sample (minute ${(peakSample.atMs / 60_000).toFixed(1)}) | RSS ${(peakSample.rssBytes / MB).toFixed(0)} MB (${(peakSample.rssFileBytes / MB).toFixed(0)} MB of it file-backed: mapped code of node and the ClickHouse library): heap ${(peakSample.heapUsedBytes / MB).toFixed(0)} (main) + ${mbOf(peakSample.threadHeapUsedBytes)} (scoring threads), external ${mbOf(peakSample.externalBytes)}, store engine ${mbOf(peakSample.storeEngineBytes)} MB${engineActivity(peakSample)} |`,
  );
  console.log(`| time from 200 to visible finding (planted hosts, under load) | p50 ${fmt(percentile(latencies, 50) ?? NaN)} ms, p95 ${fmt(percentile(latencies, 95) ?? NaN)} ms |`);
  const uploads = result.probes.map((p) => p.uploadMs);
  const endMs = stopped.atMs;
  console.log(
    `| the same planted hosts: mean time from 200 to the finding's production (its processed_time, whole seconds) and from there to visible, whole run; first third → last third | ${productionSplit(result.probes, 0, endMs)}; ${productionSplit(result.probes, 0, endMs / 3)} → ${productionSplit(result.probes, (2 * endMs) / 3, endMs)} |`,
  );
  console.log(`| the stages on the way to a finding, over all records (p50, p95) | ${stageFigures(samples[0], stopped)} |`);
  console.log(`| the same stages, first third → last third | ${stageFigures(samples[0], samples[third])} → ${stageFigures(samples[samples.length - 1 - third], stopped)} |`);
  console.log(`| the planted hosts' polls of GET /v1/findings while waiting (p50, p95; polls per host), first third → last third | ${probePollFigures(result.probes, endMs)} |`);
  console.log(`| time from POST to 200 of those uploads (waiting for admission, retries included) | p50 ${fmt(percentile(uploads, 50) ?? NaN)} ms, p95 ${fmt(percentile(uploads, 95) ?? NaN)} ms |`);
  console.log(`| planted malicious hosts detected | ${latencies.length} of ${result.probes.length}${missed.length ? ` (missed: ${missed.join(', ')})` : ''} |`);
  console.log(`| accepted / scored after drain | ${fmt(drained.accepted)} / ${fmt(drained.scored)}${drained.scored >= drained.accepted ? ' (none lost)' : ' (NOT all scored)'} |`);
  console.log(`| GET /v1/account/status under load (${result.statusLatenciesMs.length} polls) | p50 ${fmt(percentile(result.statusLatenciesMs, 50) ?? NaN)} ms, p99 ${fmt(percentile(result.statusLatenciesMs, 99) ?? NaN)} ms |`);
  console.log(`| backpressure answers (429/503) | ${result.fleet.backpressure} of ${result.fleet.posted} posts |`);
  console.log(`| detection-state checkpoints under load | ${checkpointFigures(samples[0], stopped)} |`);
}

/** Mean time from 200 to the finding's production and from there to visible, over the probes answered in [from, to). */
function productionSplit(probes: readonly ProbeResult[], from: number, to: number): string {
  const timed = probes.filter((p) => p.atMs >= from && p.atMs < to && p.latencyMs !== undefined && p.producedAfterMs !== undefined);
  if (timed.length === 0) return '–';
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const produced = mean(timed.map((p) => p.producedAfterMs as number));
  return `${fmt(produced)} ms + ${fmt(mean(timed.map((p) => p.latencyMs as number)) - produced)} ms`;
}

/** How long the probes' polls took, and how many each needed, in the first and the last third of the run. */
function probePollFigures(probes: readonly ProbeResult[], endMs: number): string {
  const figure = (from: number, to: number) => {
    const chosen = probes.filter((p) => p.atMs >= from && p.atMs < to);
    const polls = chosen.flatMap((p) => p.pollsMs);
    const perHost = chosen.length === 0 ? NaN : polls.length / chosen.length;
    return `${fmt(percentile(polls, 50) ?? NaN)} ms, ${fmt(percentile(polls, 95) ?? NaN)} ms; ${perHost.toFixed(1)}`;
  };
  return `${figure(0, endMs / 3)} → ${figure((2 * endMs) / 3, endMs)}`;
}

/** Quantiles of the stage histograms between two samples: scoring (events appended → scored, findings published), store (finding appended → stored). */
function stageFigures(from: Sample, to: Sample): string {
  const figure = (stage: keyof Sample['stageDelays']) => {
    const between = bucketsBetween(from.stageDelays[stage], to.stageDelays[stage]);
    const ms = (q: number) => fmt((quantileOf(between, q) ?? NaN) * 1000);
    return `${ms(0.5)} ms, ${ms(0.95)} ms`;
  };
  return `telemetry appended → scored and findings published: ${figure('scoring')}; finding appended → stored: ${figure('store')}`;
}

/** How often each events partition's state was checkpointed under load (the replay a restart would need) and at what cost. */
function checkpointFigures(from: Sample, to: Sample): string {
  if (from.checkpoints === undefined || to.checkpoints === undefined) return '–';
  const count = to.checkpoints.count - from.checkpoints.count;
  if (count <= 0) return 'none';
  const seconds = (to.atMs - from.atMs) / 1000;
  const workMs = ((to.checkpoints.seconds - from.checkpoints.seconds) / count) * 1000;
  return `${fmt(count)}: one per partition every ${((seconds * TOPICS.events.partitions) / count).toFixed(1)} s, ${workMs.toFixed(0)} ms of work each`;
}

async function runAllInOne(options: Options, workload: Map<TelemetryType, Body[]>, allBodies: Body[]): Promise<void> {
  const deployment = await startAllInOne(options);
  try {
    const result = await runLoad(deployment, options, workload);
    const baseline = parseBaseline(allBodies, 10);
    console.log('\n## Summary\n');
    printSummary(result, baseline, nodeThreadRoles(options.env));
  } finally {
    await deployment.stop();
  }
}

/** The same load against the split deployment with 2 scoring engines, then 1; one cluster at a time. */
async function runSplit(options: Options, workload: Map<TelemetryType, Body[]>, allBodies: Body[]): Promise<void> {
  if (options.profileDir) throw new Error('--profile profiles the all-in-one only; it cannot be combined with --split');
  if (options.nodeArgs.length > 0) throw new Error('--node-arg applies to the all-in-one only; it cannot be combined with --split');
  if (options.serverLog) throw new Error('--server-log applies to the all-in-one only; it cannot be combined with --split');
  const results: { engines: number; result: LoadResult }[] = [];
  for (const engines of SPLIT_ENGINES) {
    console.log(`\n## Split deployment: ${SPLIT_GATEWAYS} gateways, ${engines} scoring engine${engines > 1 ? 's' : ''} over Kafka (RSS: every service, the broker and Redis)\n`);
    const deployment = await startSplit({ ...options, gateways: SPLIT_GATEWAYS, scoringEngines: engines });
    try {
      results.push({ engines, result: await runLoad(deployment, options, workload) });
    } finally {
      await deployment.stop();
    }
  }
  const baseline = parseBaseline(allBodies, 10);
  for (const { engines, result } of results) {
    console.log(`\n## Summary: split, ${engines} scoring engine${engines > 1 ? 's' : ''}\n`);
    printSummary(result, baseline, nodeThreadRoles(options.env));
  }
  const [many, one] = results;
  console.log(`\n## Scale-out ratio (${options.minutes} min each, same workload, ${Math.max(options.clients, SPLIT_GATEWAYS)} clients over ${SPLIT_GATEWAYS} gateways)\n`);
  console.log('| scoring engines | accepted ev/s | scored ev/s | scoring lag when the load stopped (events) |\n|---|---|---|---|');
  for (const { engines, result } of results) {
    console.log(`| ${engines} | ${fmt(rate(result.samples[0], result.stopped, 'accepted'))} | ${fmt(overallScored(result))} | ${fmt(result.stopped.accepted - result.stopped.scored)} |`);
  }
  console.log(`| ratio ${many.engines}/${one.engines} | | ${(overallScored(many.result) / overallScored(one.result)).toFixed(2)} | |`);
  console.log(
    `\nNote: this machine has ${availableParallelism()} cores, and the broker, Redis and every service (gateways, scoring engines, findings-api, account, rules) share them, ` +
      'so the ratio measures contention for those cores as much as scale-out; scale-out proper needs the scoring engines on cores (or machines) of their own.',
  );
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  console.log(`# Sustained load: ${options.hosts.toLocaleString('en-US')} hosts, ${options.clients} clients, ${options.minutes} min${options.split ? ' (split deployment)' : ''}`);
  const built = performance.now();
  const workload = buildWorkload({ hosts: options.hosts, eventsPerBody: 20_000, bodiesPerType: 24, seed: 1 });
  const allBodies = [...workload.values()].flat();
  const totalEvents = allBodies.reduce((n, b) => n + b.events, 0);
  console.log(`workload: ${allBodies.length} bodies, ${fmt(totalEvents)} events, ${(allBodies.reduce((n, b) => n + b.gzip.length, 0) / MB).toFixed(1)} MB gzip (built in ${((performance.now() - built) / 1000).toFixed(1)} s)\n`);
  await (options.split ? runSplit : runAllInOne)(options, workload, allBodies);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
