/**
 * `npm run bench` (sustained): a fleet of sensors posting without pause to the embedded all-in-one for minutes,
 * the way Vigil is used — does throughput stay flat and memory bounded as detection state grows?
 *
 *   node -r ./tools/register.cjs bench/sustained.ts [--minutes 10] [--clients 2] [--hosts 20000]
 *        [--row-seconds 60] [--profile <dir>] [--env NAME=VALUE ...]
 *
 * Prints one row per interval (accepted and scored events/s, scoring lag, RSS, heap, detection state, evictions),
 * then: the parse-only baseline of the same bodies measured in the same run and the ratio to it, the last/first
 * throughput ratio (last third of the run against the first third), peak RSS, the p95 time from 200 to a visible
 * finding for malicious hosts planted every 15 s under load, whether every one was detected, whether every
 * accepted event was scored, and the p50/p99 of GET /v1/account/status polled every 200 ms during the run. --profile writes a V8 CPU profile of the server into <dir>.
 */
import { gunzipSync } from 'node:zlib';
import { parseOnly, percentile } from './run';
import { startVigil } from '@vigil/testing';
import { Fleet } from './sustained/fleet';
import { MaliciousHostProbes } from './sustained/probes';
import { rssOf, sample, type Sample } from './sustained/sampler';
import { StatusPoller } from './sustained/status-poller';
import { buildWorkload, type Body } from './sustained/workload';

interface Options {
  minutes: number;
  clients: number;
  hosts: number;
  rowSeconds: number;
  profileDir?: string;
  env: Record<string, string>;
}

function parseOptions(argv: string[]): Options {
  const value = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const env: Record<string, string> = {};
  argv.forEach((arg, i) => {
    if (arg === '--env') {
      const [name, ...rest] = argv[i + 1].split('=');
      env[name] = rest.join('=');
    }
  });
  return {
    minutes: Number(value('--minutes') ?? 10),
    clients: Number(value('--clients') ?? 2),
    hosts: Number(value('--hosts') ?? 20_000),
    rowSeconds: Number(value('--row-seconds') ?? 60),
    profileDir: value('--profile'),
    env,
  };
}

const MB = 1024 * 1024;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Single-thread split + JSON.parse (after gunzip) of every body, repeated for at least `seconds`. */
function parseBaseline(bodies: Body[], seconds: number): number {
  const started = performance.now();
  let events = 0;
  while (performance.now() - started < seconds * 1000) for (const body of bodies) events += parseOnly(gunzipSync(body.gzip));
  return events / ((performance.now() - started) / 1000);
}

function rate(from: Sample, to: Sample, field: 'accepted' | 'scored'): number {
  return (to[field] - from[field]) / ((to.atMs - from.atMs) / 1000);
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  console.log(`# Sustained load: ${options.hosts.toLocaleString('en-US')} hosts, ${options.clients} clients, ${options.minutes} min`);
  const built = performance.now();
  const workload = buildWorkload({ hosts: options.hosts, eventsPerBody: 20_000, bodiesPerType: 24, seed: 1 });
  const allBodies = [...workload.values()].flat();
  const totalEvents = allBodies.reduce((n, b) => n + b.events, 0);
  console.log(`workload: ${allBodies.length} bodies, ${fmt(totalEvents)} events, ${(allBodies.reduce((n, b) => n + b.gzip.length, 0) / MB).toFixed(1)} MB gzip (built in ${((performance.now() - built) / 1000).toFixed(1)} s)\n`);

  const vigil = await startVigil({
    env: { VIGIL_RATE_LIMIT: '100000000/60s', ...options.env },
    nodeArgs: options.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${options.profileDir}`] : [],
  });
  const started = Date.now();
  const fleet = new Fleet(vigil, workload);
  const probes = new MaliciousHostProbes(vigil, started);
  const status = new StatusPoller(vigil);
  const samples: Sample[] = [await sample(vigil, started)];
  let peakRss = 0;
  try {
    fleet.start(options.clients);
    probes.start(15_000);
    status.start(200);
    console.log('| minute | accepted ev/s | scored ev/s | scoring lag (events) | RSS MB | heap used MB (main) | heap used MB (scoring threads) | external MB | store engine MB | state MB | evictions |');
    console.log('|---|---|---|---|---|---|---|---|---|---|---|');
    const end = started + options.minutes * 60_000;
    let rowStart = samples[0];
    while (Date.now() < end) {
      await new Promise((r) => setTimeout(r, 5000));
      peakRss = Math.max(peakRss, rssOf(vigil.child.pid!));
      const now = await sample(vigil, started);
      samples.push(now);
      if (now.atMs - rowStart.atMs >= options.rowSeconds * 1000 - 2500) {
        const state = now.stateBytes === undefined ? '–' : (now.stateBytes / MB).toFixed(0);
        const evictions = now.evictions === undefined ? '–' : fmt(now.evictions);
        const mb = (bytes: number | undefined) => (bytes === undefined ? '–' : (bytes / MB).toFixed(0));
        console.log(
          `| ${(now.atMs / 60_000).toFixed(1)} | ${fmt(rate(rowStart, now, 'accepted'))} | ${fmt(rate(rowStart, now, 'scored'))} | ${fmt(now.accepted - now.scored)} | ${(now.rssBytes / MB).toFixed(0)} | ${(now.heapUsedBytes / MB).toFixed(0)} | ${mb(now.threadHeapUsedBytes)} | ${mb(now.externalBytes)} | ${mb(now.storeEngineBytes)} | ${state} | ${evictions} |`,
        );
        rowStart = now;
      }
    }
    await fleet.stop();
    await probes.stop();
    await status.stop();
    const stopped = samples[samples.length - 1];
    // Drain: every accepted event must be scored.
    let drained = await sample(vigil, started);
    const drainDeadline = Date.now() + 180_000;
    while (drained.scored < drained.accepted && Date.now() < drainDeadline) {
      await new Promise((r) => setTimeout(r, 2000));
      drained = await sample(vigil, started);
    }

    const third = Math.max(1, Math.floor(samples.length / 3));
    const first = rate(samples[0], samples[third], 'scored');
    const last = rate(samples[samples.length - 1 - third], stopped, 'scored');
    const overall = rate(samples[0], stopped, 'scored');
    const baseline = parseBaseline(allBodies, 10);
    const latencies = probes.results.flatMap((p) => (p.latencyMs === undefined ? [] : [p.latencyMs]));
    const missed = probes.results.filter((p) => p.latencyMs === undefined).map((p) => p.host);
    console.log('\n## Summary\n');
    console.log(`| figure | value |\n|---|---|`);
    console.log(`| scored events/s over the run | ${fmt(overall)} |`);
    console.log(`| parse-only baseline (gunzip + split + JSON.parse, one thread, same bodies) | ${fmt(baseline)} |`);
    console.log(`| ratio scored / baseline | ${(overall / baseline).toFixed(3)} |`);
    console.log(`| first third → last third scored events/s | ${fmt(first)} → ${fmt(last)} (last/first ${(last / first).toFixed(2)}) |`);
    console.log(`| peak RSS | ${(peakRss / MB).toFixed(0)} MB |`);
    console.log(`| time from 200 to visible finding (planted hosts, under load) | p50 ${fmt(percentile(latencies, 50) ?? NaN)} ms, p95 ${fmt(percentile(latencies, 95) ?? NaN)} ms |`);
    console.log(`| planted malicious hosts detected | ${latencies.length} of ${probes.results.length}${missed.length ? ` (missed: ${missed.join(', ')})` : ''} |`);
    console.log(`| accepted / scored after drain | ${fmt(drained.accepted)} / ${fmt(drained.scored)}${drained.scored >= drained.accepted ? ' (none lost)' : ' (NOT all scored)'} |`);
    console.log(`| GET /v1/account/status under load (${status.latenciesMs.length} polls) | p50 ${fmt(percentile(status.latenciesMs, 50) ?? NaN)} ms, p99 ${fmt(percentile(status.latenciesMs, 99) ?? NaN)} ms |`);
    console.log(`| backpressure answers (429/503) | ${fleet.counters.backpressure} of ${fleet.counters.posted} posts |`);
  } finally {
    await fleet.stop().catch(() => undefined);
    await vigil.stop('SIGINT');
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
