/**
 * `npm run bench` (distributed variant): the split deployment — two gateways, two scoring engines, findings-api,
 * account and rules as separate processes over a real Kafka broker (publish waits for acks=all) and Redis —
 * next to the parse-only baseline and the embedded all-in-one, measured in the same run with the same bodies:
 *  1. gateway ingest throughput for gzip NDJSON bodies (one client on one gateway; one client per gateway);
 *  2. time from the 200 of an upload to its finding being visible over GET /v1/findings (p50/p95).
 * Needs Java 17 (the broker) and redis-server, like the integration tests.
 */
import { gunzipSync } from 'node:zlib';
import { benignDnsEvents, DistributedCluster, gzipNdjson, ndjsonBodyOfSize, startVigil, type ServiceProcess } from '@vigil/testing';
import { findingLatencies, measure, measureIngest, parseOnly, percentile, rate, type Target, type Throughput } from './run';

const MB = 1024 * 1024;
const KEY = 'vgl_benchDistributedKey0000000000001';
const ENV = { VIGIL_RATE_LIMIT: '100000/60s' };
const REPEAT = 12;
const LATENCY_SAMPLES = 20;

interface Row {
  label: string;
  throughput: Throughput;
}

interface Latency {
  label: string;
  samples: number[];
}

/** Each gateway gets its own sequential client; events/s over the wall time of the slowest. */
async function concurrentIngest(gateways: Target[], label: string, gz: Buffer, repeat: number): Promise<Throughput> {
  const started = process.hrtime.bigint();
  const parts = await Promise.all(gateways.map((gateway, i) => measureIngest(gateway, `${label} #${i}`, gz, repeat)));
  return { label, events: parts.reduce((n, p) => n + p.events, 0), seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const asTarget = (service: ServiceProcess, key: string): Target => ({ baseUrl: service.baseUrl, key });

async function main(): Promise<void> {
  const raw = ndjsonBodyOfSize(MB - 4096, (count) => benignDnsEvents(count, { hosts: 200 }));
  const gz = gzipNdjson(raw.toString('utf8').trim().split('\n').map((line) => JSON.parse(line)));
  const rows: Row[] = [{ label: 'baseline: gunzip + split + JSON.parse (no HTTP, no bus)', throughput: measure('parse-only', REPEAT, () => parseOnly(gunzipSync(gz))) }];
  const latencies: Latency[] = [];

  // One deployment at a time, so they do not compete for the CPU.
  const embedded = await startVigil({ key: KEY, env: ENV });
  try {
    rows.push({ label: 'embedded all-in-one (local fsynced bus)', throughput: await measureIngest(embedded, 'embedded', gz, REPEAT) });
    latencies.push({ label: 'embedded all-in-one', samples: await findingLatencies(embedded, LATENCY_SAMPLES) });
  } finally {
    await embedded.stop();
  }

  const cluster = await DistributedCluster.start({ key: KEY, env: ENV });
  try {
    const gateways = cluster.gateways.map((g) => asTarget(g, KEY));
    const findingsApi = asTarget(cluster.replicas('findings-api')[0], KEY);
    rows.push({ label: 'distributed: 1 client → 1 gateway (Kafka acks=all)', throughput: await measureIngest(gateways[0], 'one gateway', gz, REPEAT) });
    rows.push({ label: `distributed: ${gateways.length} clients → ${gateways.length} gateways`, throughput: await concurrentIngest(gateways, 'gateways', gz, REPEAT) });
    latencies.push({ label: 'distributed (gateway → Kafka → scoring → Kafka → findings-api)', samples: await findingLatencies(gateways[0], LATENCY_SAMPLES, findingsApi) });
  } finally {
    await cluster.stop();
  }

  const baseline = rate(rows[0].throughput);
  console.log(`\n## Distributed ingest throughput (events/s; 1 MB body, ${(gz.length / MB).toFixed(2)} MB gzip on the wire, ${REPEAT} requests per client)\n`);
  console.log('| path | events/s | ratio to parse-only baseline |');
  console.log('|---|---|---|');
  for (const { label, throughput } of rows) console.log(`| ${label} | ${Math.round(rate(throughput)).toLocaleString()} | ${(rate(throughput) / baseline).toFixed(2)} |`);
  console.log(`\n## Time from 200 to finding visible over GET /v1/findings (${LATENCY_SAMPLES} samples; visibility delay 1000 ms included)\n`);
  console.log('| deployment | p50 ms | p95 ms | max ms |');
  console.log('|---|---|---|---|');
  for (const { label, samples } of latencies) {
    console.log(`| ${label} | ${Math.round(percentile(samples, 50))} | ${Math.round(percentile(samples, 95))} | ${Math.round(Math.max(...samples))} |`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
