/**
 * The five services as separate processes (two gateways, two scoring engines, findings-api, account, rules) over
 * a real Kafka broker and a real Redis: against the embedded all-in-one on the same input, the control plane
 * across replicas, and — last, since they disturb the cluster — faults under load: kill -9 of a scoring-engine
 * replica and of a gateway replica while telemetry streams in, and a broker restart. One cluster serves the file.
 */
import { isDeepStrictEqual } from 'node:util';
import { gzipSync } from 'node:zlib';
import { api, DistributedCluster, startVigil, toNdjson, type HttpResult, type VigilProcess } from '@vigil/testing';
import { counterValue, createKey, markerEvent, markerToken, untilKeyAccepted, uploadRuleAndAwaitEverywhere } from './cluster-helpers';
import { repeated, ResultFeed } from './result-feed';
import { RetryingSender, type TokenedEvent } from './retrying-sender';
import { HOSTS, hostPerPartition, mixedWorkload, postsPerGateway } from './workload';

const KEY = 'vgl_distributedE2eClusterKey00000001';
/** Per key and window, shared by all replicas; every test but the rate-limit one stays well under it. */
const RATE_LIMIT = 1000;
const SCORED = 'vigil_events_scored_total';
const FAULT_SUFFIX = 'fault-marker.test';
const FAULT_RULE_ID = '8c5e1f90-2b7a-4d36-a1f4-6e9b0d3c7a52';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let cluster: DistributedCluster;
let embedded: VigilProcess;

beforeAll(async () => {
  const env = { VIGIL_VISIBILITY_DELAY_MS: '200' };
  const startedAt = Date.now();
  const [started, all] = await Promise.allSettled([
    DistributedCluster.start({ key: KEY, env: { ...env, VIGIL_RATE_LIMIT: `${RATE_LIMIT}/60s` } }),
    startVigil({ key: KEY, env }),
  ]);
  if (started.status === 'fulfilled') cluster = started.value;
  if (all.status === 'fulfilled') embedded = all.value;
  if (started.status === 'rejected') throw started.reason;
  if (all.status === 'rejected') throw all.reason;
  process.stdout.write(`[distributed] cluster of ${cluster.services.length} services and the embedded all-in-one ready in ${Date.now() - startedAt} ms\n`);
});

afterAll(async () => {
  await Promise.allSettled([cluster?.stop(), embedded?.stop()]);
});

/** What must agree between deployments: per (detection, key, host), the final count of each finding. */
function findingSummary(findings: any[]): Record<string, number[]> {
  const latest = new Map<string, any>();
  for (const f of findings) {
    const previous = latest.get(f.finding_info.uid);
    if (!previous || f.count > previous.count) latest.set(f.finding_info.uid, f);
  }
  const summary: Record<string, number[]> = {};
  for (const f of latest.values()) {
    const detectionKey = f.enrichments?.[0]?.data?.aggregation?.key?.detections?.[0]?.key;
    const id = `${f.finding_info.analytic.uid} | ${detectionKey} | ${f.device?.ip}`;
    (summary[id] ??= []).push(f.count);
  }
  for (const counts of Object.values(summary)) counts.sort((a, b) => a - b);
  return summary;
}

/** Alerts per (host, detections raised). */
function alertSummary(alerts: any[]): Record<string, number> {
  const summary: Record<string, number> = {};
  for (const a of alerts) {
    const id = `${a.event.srcIP} | ${a.detections.map((d: any) => d.id).sort().join(',')}`;
    summary[id] = (summary[id] ?? 0) + 1;
  }
  return summary;
}

function expectAccepted(res: HttpResult<any>, count: number, where: string): void {
  if (res.status !== 200 || res.body.accepted !== count) throw new Error(`${where}: ${res.status} ${res.text}`);
}

describe('distributed: five services as separate processes over Kafka and Redis', () => {
  it('produces the same findings and alerts from telemetry posted to both gateways as the embedded all-in-one', async () => {
    await cluster.withLogsOnFailure(async () => {
      const scoredBefore = await Promise.all(cluster.scoringEngines.map((s) => counterValue(s, SCORED)));
      const plan = postsPerGateway(mixedWorkload(Date.now() - 60_000), cluster.gateways.length);
      for (const [g, posts] of plan.entries()) {
        for (const post of posts) {
          const body = gzipSync(toNdjson(post.events));
          const headers = { 'content-encoding': 'gzip', 'content-type': 'application/x-ndjson' };
          const path = `/v1/events/${post.type}`;
          expectAccepted(await cluster.request('POST', path, { via: cluster.gateways[g], body, headers }), post.events.length, `${cluster.gateways[g].name} ${path}`);
          expectAccepted(await api(embedded, 'POST', path, { body, headers }), post.events.length, `embedded ${path}`);
        }
      }

      const feeds = {
        distributed: { findings: new ResultFeed('findings', (url) => cluster.request('GET', url)), alerts: new ResultFeed('alerts', (url) => cluster.request('GET', url)) },
        embedded: { findings: new ResultFeed('findings', (url) => api(embedded, 'GET', url)), alerts: new ResultFeed('alerts', (url) => api(embedded, 'GET', url)) },
      };
      const expected = [`dns_tunnel | exfil-tunnel-test.net | ${HOSTS.tunnel}`, `oast_domain | `, `intel_c2 | 0debug.cc | ${HOSTS.c2}`, `port_scan_vertical | 185.199.108.1 | ${HOSTS.scanner}`];
      const complete = (summary: Record<string, number[]>) => expected.every((prefix) => Object.keys(summary).some((id) => id.startsWith(prefix)));
      // Both sides are done once they agree, with every expected detection present, on two polls in a row (so a
      // moment where both lag alike does not count); a difference that stays is a failure.
      const deadline = Date.now() + 60_000;
      let sides: { findings: Record<string, number[]>; alerts: Record<string, number> }[] = [];
      let agreed: unknown;
      for (;;) {
        await Promise.all(Object.values(feeds).flatMap((f) => [f.findings.poll(), f.alerts.poll()]));
        sides = Object.values(feeds).map((f) => ({ findings: findingSummary(f.findings.items), alerts: alertSummary(f.alerts.items) }));
        const [d, e] = sides;
        const agreeing = complete(d.findings) && complete(e.findings) && isDeepStrictEqual(d, e);
        if ((agreeing && isDeepStrictEqual(agreed, d)) || Date.now() > deadline) break;
        agreed = agreeing ? d : undefined;
        await new Promise((r) => setTimeout(r, 1_000));
      }
      const [distributed, all] = sides;
      expect(expected.filter((prefix) => !Object.keys(all.findings).some((id) => id.startsWith(prefix)))).toEqual([]);
      expect(distributed.findings).toEqual(all.findings);
      expect(distributed.alerts).toEqual(all.alerts);

      // Hosts spread over the partitions, so both scoring replicas did part of the work.
      const scoredAfter = await Promise.all(cluster.scoringEngines.map((s) => counterValue(s, SCORED)));
      const scoredHere = scoredAfter.map((n, i) => n - scoredBefore[i]);
      expect(scoredHere.every((n) => n > 0)).toBe(true);
      expect(scoredHere.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(plan.flat().reduce((n, post) => n + post.events.length, 0));
    });
  });

  it('holds the per-key rate limit across both gateways (shared in Redis)', async () => {
    await cluster.withLogsOnFailure(async () => {
      const { key } = await createKey(cluster, 'rate-limited');
      const body = toNdjson([markerEvent('rate', '10.80.0.1', 'rate-limit.test')]);
      const statuses: Record<string, number[]> = Object.fromEntries(cluster.gateways.map((g) => [g.name, []]));
      let retryAfter: string | null = null;
      let sent = 0;
      const bothRefused = () => Object.values(statuses).every((s) => s.includes(429));
      // Four clients, requests alternating between the gateways, until both have refused (401 until the key
      // reaches a gateway's cache; that costs no quota).
      const lane = async () => {
        while (!bothRefused() && sent < RATE_LIMIT * 1.5) {
          const gateway = cluster.gateways[sent++ % cluster.gateways.length];
          const res = await cluster.request('POST', '/v1/events/dns', { via: gateway, key, body });
          statuses[gateway.name].push(res.status);
          if (res.status === 429) retryAfter ??= res.headers.get('retry-after');
        }
      };
      await Promise.all([lane(), lane(), lane(), lane()]);
      const all = Object.values(statuses).flat();
      expect(all.filter((s) => ![200, 401, 429].includes(s))).toEqual([]);
      // Each gateway alone would let RATE_LIMIT through; together they let exactly RATE_LIMIT through.
      expect(all.filter((s) => s === 200)).toHaveLength(RATE_LIMIT);
      for (const perGateway of Object.values(statuses)) {
        expect(perGateway.filter((s) => s === 200).length).toBeGreaterThan(RATE_LIMIT / 4);
        expect(perGateway).toContain(429);
      }
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    });
  });

  it('puts a new key and a new Sigma rule into force on every replica within seconds', async () => {
    await cluster.withLogsOnFailure(async () => {
      const created = Date.now();
      const account = await createKey(cluster, 'newcomer');
      const keyLatency = await untilKeyAccepted(cluster, account.key, created);
      // Every replica that checks keys: both gateways, findings-api, rules, account.
      expect(Object.keys(keyLatency).sort()).toEqual(['account', 'findings-api', 'ingest-gateway-1', 'ingest-gateway-2', 'rules']);
      expect(Math.max(...Object.values(keyLatency))).toBeLessThan(15_000);

      const scoredBefore = await Promise.all(cluster.scoringEngines.map((s) => counterValue(s, SCORED)));
      const ruleLatency = await uploadRuleAndAwaitEverywhere(cluster, account, '3f0d2a47-61c8-4b0e-9d3e-0c2f8e5a9b11', 'newcomer.test');
      const scoredAfter = await Promise.all(cluster.scoringEngines.map((s) => counterValue(s, SCORED)));
      // Marker alerts came from a host on every partition, and every scoring replica scored some of them.
      expect(scoredAfter.every((n, i) => n > scoredBefore[i])).toBe(true);
      expect(ruleLatency).toBeLessThan(15_000);
      process.stdout.write(`[distributed] new key accepted after ${JSON.stringify(keyLatency)} ms; new rule in force everywhere after ${ruleLatency} ms\n`);
    });
  });
});

describe('distributed: faults mid-stream', () => {
  it('scores every event answered 200 exactly once per request through kill -9 of a scoring engine and a gateway and a broker restart', async () => {
    await cluster.withLogsOnFailure(async () => {
      const account = await createKey(cluster, 'faults');
      await untilKeyAccepted(cluster, account.key);
      await uploadRuleAndAwaitEverywhere(cluster, account, FAULT_RULE_ID, FAULT_SUFFIX);
      const hosts = hostPerPartition(account.workspaceId, '10.90');
      const sender = new RetryingSender(() => cluster.gateways, account.key);

      // Two concurrent streams of requests, each carrying one marker query from every host (all partitions).
      let streaming = true;
      let sequence = 0;
      const stream = async (lane: number) => {
        while (streaming) {
          const n = sequence++;
          const batch: TokenedEvent[] = hosts.map((ip, h) => ({ token: `f${n}x${h}`, event: markerEvent(`f${n}x${h}`, ip, FAULT_SUFFIX) }));
          await sender.send(batch);
          await sleep(200 + lane * 50);
        }
      };
      const streams = [stream(0), stream(1)];

      const [scoring] = cluster.scoringEngines;
      const [gateway] = cluster.gateways;
      const timeline: string[] = [];
      const mark = (what: string) => timeline.push(`${new Date().toISOString()} ${what} (answered so far: ${sender.ledger.answered.size})`);
      await sleep(2_000);
      mark(`kill -9 ${scoring.name}`);
      await scoring.kill('SIGKILL');
      await sleep(2_000);
      mark(`kill -9 ${gateway.name}`);
      await gateway.kill('SIGKILL');
      await sleep(1_000);
      await gateway.start();
      mark(`${gateway.name} ready again`);
      mark('broker restart');
      await cluster.kafka.restart();
      mark('broker up again');
      await scoring.start();
      mark(`${scoring.name} ready again`);
      await sleep(3_000);
      streaming = false;
      await Promise.all(streams);
      mark('stream stopped');

      const { answered, resent, abandoned, outcomes } = sender.ledger;
      process.stdout.write(`[distributed faults] ${timeline.join('; ')}\n  outcomes ${JSON.stringify(outcomes)}, answered ${answered.size}, resent ${resent.size}, abandoned ${abandoned.size}\n`);
      // The faults hit requests in flight: some had to be sent again.
      expect(outcomes['no answer'] ?? 0).toBeGreaterThan(0);
      expect(answered.size).toBeGreaterThan(hosts.length * 20);

      const alerts = new ResultFeed('alerts', (url) => cluster.request('GET', url, { key: account.key }));
      const findings = new ResultFeed('findings', (url) => cluster.request('GET', url, { key: account.key }));
      const scored = new Map<string, number>();
      const absorb = (fresh: any[]) => {
        for (const alert of fresh) {
          const token = markerToken(alert, FAULT_SUFFIX);
          if (token?.startsWith('f')) scored.set(token, (scored.get(token) ?? 0) + 1);
        }
      };
      const drainStarted = Date.now();
      // A killed member's partitions wait for its session to expire (30 s) before they move.
      while (Date.now() - drainStarted < 150_000) {
        absorb(await alerts.poll());
        if ([...answered].every((t) => scored.has(t))) break;
        await sleep(1_000);
      }
      const drained = Date.now() - drainStarted;
      // Late duplicates would show up now.
      await sleep(2_000);
      absorb(await alerts.poll());
      await findings.poll();
      process.stdout.write(`[distributed faults] drain took ${drained} ms; ${scored.size} marker events scored, ${alerts.items.length} alerts, ${findings.items.length} finding records served\n`);

      const missing = [...answered].filter((t) => !scored.has(t));
      expect({ missing: missing.length, sample: missing.slice(0, 10) }).toEqual({ missing: 0, sample: [] });
      expect(repeated(alerts.items.map((a: any) => a.id))).toEqual([]);
      expect(repeated(findings.items.map((f: any) => f.metadata.uid))).toEqual([]);
      // Sent once and answered: exactly one alert, whatever was re-delivered inside the cluster.
      const doubled = [...scored].filter(([t, n]) => n > 1 && !resent.has(t)).map(([t]) => t);
      expect(doubled).toEqual([]);
    });
  });
});
