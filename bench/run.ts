/**
 * `npm run bench`: Vigil's benchmarks, each reported next to a baseline measured in the same run.
 *  1. Ingest throughput end to end (HTTP → decode → validate → durable bus → 200) for gzip NDJSON bodies of
 *     1 MB and 10 MB, against the parse-only baseline: split + JSON.parse of the same (decompressed) bodies.
 *  2. Time from the 200 of a telemetry upload to its finding being visible over GET /v1/findings (p50/p95).
 */
import { gunzipSync } from 'node:zlib';
import { api, benignDnsEvents, gzipNdjson, ndjsonBodyOfSize, startVigil, tunnelDnsEvents, type VigilProcess } from '@vigil/testing';

const MB = 1024 * 1024;

export interface Throughput {
  label: string;
  events: number;
  seconds: number;
}

export function parseOnly(body: Buffer): number {
  const text = body.toString('utf8');
  let count = 0;
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? undefined : end);
    if (line.trim()) {
      JSON.parse(line);
      count++;
    }
    if (end === -1) return count;
    start = end + 1;
  }
}

export function measure(label: string, repeat: number, run: () => number): Throughput {
  run(); // warm-up
  const started = process.hrtime.bigint();
  let events = 0;
  for (let i = 0; i < repeat; i++) events += run();
  return { label, events, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

/** A running Vigil's base URL and API key: the all-in-one, or one service of a split deployment. */
export type Target = Pick<VigilProcess, 'baseUrl' | 'key'>;

/** Posts a gzip body of DNS events as a sensor does: refused with 429/503, it waits Retry-After and sends it again. */
export async function postDns(vigil: Target, gz: Buffer): Promise<number> {
  for (;;) {
    const res = await api(vigil, 'POST', '/v1/events/dns', { body: gz, headers: { 'content-encoding': 'gzip' } });
    if (res.status === 200) return res.body.accepted as number;
    if (res.status !== 429 && res.status !== 503) throw new Error(`ingest answered ${res.status}: ${res.text}`);
    await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
}

export async function measureIngest(vigil: Target, label: string, gz: Buffer, repeat: number): Promise<Throughput> {
  const post = () => postDns(vigil, gz);
  await post();
  const started = process.hrtime.bigint();
  let events = 0;
  for (let i = 0; i < repeat; i++) events += await post();
  return { label, events, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

type FindingShape = { enrichments?: { data?: { aggregation?: { key?: { detections?: { key: string }[] } } } }[] };

export const rate = (t: Throughput) => t.events / t.seconds;
export const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)];

/** Posts to `vigil` and polls findings on `reader` (the same process unless the services run apart). */
export async function findingLatencies(vigil: Target, samples: number, reader: Target = vigil): Promise<number[]> {
  const latencies: number[] = [];
  let follow = (await api(reader, 'GET', '/v1/findings?schema=ocsf')).body.follow as string;
  for (let i = 0; i < samples; i++) {
    const domain = `bench-tunnel-${i}-${Date.now().toString(36)}.com`;
    const events = tunnelDnsEvents(30, { domain, srcIP: `10.66.${i % 250}.${1 + (i % 200)}`, startTs: Date.now() - 20_000, intervalMs: 500 });
    await postDns(vigil, gzipNdjson(events));
    const answered = performance.now();
    for (;;) {
      const page = await api(reader, 'GET', `/v1/findings?schema=ocsf&follow=${encodeURIComponent(follow)}`);
      follow = page.body.follow;
      const seen = (page.body.records as FindingShape[]).some((f) => f.enrichments?.[0]?.data?.aggregation?.key?.detections?.some((d) => d.key === domain));
      if (seen) break;
      if (performance.now() - answered > 30_000) throw new Error(`no finding for ${domain} within 30 s`);
      await new Promise((r) => setTimeout(r, 25));
    }
    latencies.push(performance.now() - answered);
  }
  return latencies;
}

async function main(): Promise<void> {
  const bodies = [1, 10].map((size) => {
    const raw = ndjsonBodyOfSize(size * MB - 4096, (count) => benignDnsEvents(count, { hosts: 200 }));
    return { size, raw, gz: gzipNdjson(raw.toString('utf8').trim().split('\n').map((line) => JSON.parse(line))) };
  });
  const vigil = await startVigil({ env: { VIGIL_RATE_LIMIT: '100000/60s' } });
  const rows: string[] = [];
  try {
    for (const { size, raw, gz } of bodies) {
      const repeat = size === 1 ? 20 : 4;
      const baseline = measure(`parse-only ${size} MB`, repeat, () => parseOnly(gunzipSync(gz)));
      const parseNoGunzip = measure(`split+JSON.parse ${size} MB`, repeat, () => parseOnly(raw));
      const ingest = await measureIngest(vigil, `ingest ${size} MB gzip`, gz, repeat);
      rows.push(
        `| ${size} MB gzip NDJSON (${(gz.length / MB).toFixed(2)} MB on the wire) | ${Math.round(rate(parseNoGunzip)).toLocaleString()} | ${Math.round(rate(baseline)).toLocaleString()} | ${Math.round(rate(ingest)).toLocaleString()} | ${(rate(ingest) / rate(parseNoGunzip)).toFixed(2)} | ${(rate(ingest) / rate(baseline)).toFixed(2)} |`,
      );
    }
    console.log('\n## Ingest throughput (events/s; one client, sequential requests)\n');
    console.log('| body | baseline split+JSON.parse | baseline gunzip+split+JSON.parse | Vigil end to end | ratio to split+parse | ratio to gunzip+parse |');
    console.log('|---|---|---|---|---|---|');
    rows.forEach((row) => console.log(row));
    const latencies = await findingLatencies(vigil, 20);
    console.log('\n## Time from 200 to finding visible over GET /v1/findings (20 samples)\n');
    console.log(`p50 ${Math.round(percentile(latencies, 50))} ms, p95 ${Math.round(percentile(latencies, 95))} ms, max ${Math.round(Math.max(...latencies))} ms (visibility delay ${process.env.VIGIL_VISIBILITY_DELAY_MS ?? 1000} ms included)`);
  } finally {
    await vigil.stop();
  }
}

// Also a module: bench/distributed.ts reuses the measurements above.
if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
