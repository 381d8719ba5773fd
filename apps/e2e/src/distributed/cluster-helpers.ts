import { eventually, toNdjson, type DistributedCluster, type HttpResult, type ServiceProcess } from '@vigil/testing';
import { markerRuleZip, ZIP_HEADERS } from './marker-rule';
import { ResultFeed } from './result-feed';
import { hostPerPartition } from './workload';

/** The value of a counter without labels from a service's /metrics. */
export async function counterValue(service: ServiceProcess, name: string): Promise<number> {
  const text = await (await fetch(`${service.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

export interface CreatedKey {
  key: string;
  workspaceId: string;
}

/** A new key (and workspace) through the account service's operator API. */
export async function createKey(cluster: DistributedCluster, workspace: string): Promise<CreatedKey> {
  const res = await cluster.request('POST', '/admin/v1/keys', {
    key: null,
    headers: { authorization: `Bearer ${cluster.adminToken()}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workspace }),
  });
  if (res.status !== 201 && res.status !== 200) throw new Error(`POST /admin/v1/keys: ${res.status} ${res.text}`);
  return { key: res.body.key, workspaceId: res.body.workspaceId };
}

const KEY_WAIT_MS = 15_000;

/**
 * Waits until every replica that checks keys (each gateway, findings-api, rules, account) accepts `key`; returns,
 * per replica, the milliseconds from `since` (default: now) to its first 200. A gateway probe posts one event.
 */
export async function untilKeyAccepted(cluster: DistributedCluster, key: string, since = Date.now()): Promise<Record<string, number>> {
  const probes: Record<string, () => Promise<HttpResult>> = {
    ...Object.fromEntries(
      cluster.gateways.map((g) => [g.name, () => cluster.request('POST', '/v1/events/dns', { via: g, key, body: toNdjson([markerEvent('hello', '10.81.0.1', 'key-probe.test')]) })]),
    ),
    'findings-api': () => cluster.request('GET', '/v1/findings', { key }),
    rules: () => cluster.request('GET', '/v1/detections', { key }),
    account: () => cluster.request('GET', '/v1/account/status', { key }),
  };
  const latency: Record<string, number> = {};
  await Promise.all(
    Object.entries(probes).map(async ([name, probe]) => {
      for (;;) {
        const res = await probe();
        if (res.status === 200) break;
        if (res.status !== 401) throw new Error(`${name}: ${res.status} ${res.text}`);
        if (Date.now() - since > KEY_WAIT_MS) throw new Error(`${name} still refuses the new key after ${KEY_WAIT_MS / 1000} s`);
        await new Promise((r) => setTimeout(r, 100));
      }
      latency[name] = Date.now() - since;
    }),
  );
  return latency;
}

/** A DNS query under the marker suffix that names its token, from `srcIP`. */
export function markerEvent(token: string, srcIP: string, suffix: string): Record<string, unknown> {
  return { ts: new Date().toISOString(), srcIP, query: `${token}.${suffix}`, qtype: 'A' };
}

/** The token of a marker alert (its event's first label), or undefined for other alerts. */
export function markerToken(alert: any, suffix: string): string | undefined {
  const query = String(alert?.event?.query ?? '');
  return query.endsWith(`.${suffix}`) ? query.slice(0, -suffix.length - 1) : undefined;
}

/**
 * Uploads the marker rule for `account` and waits until it is in force on every scoring replica: probe events
 * from one host per events-topic partition (so from partitions of every replica), posted through every gateway
 * in turn, round after round, until each host has raised a marker alert. Returns the milliseconds that took.
 */
export async function uploadRuleAndAwaitEverywhere(cluster: DistributedCluster, account: CreatedKey, ruleId: string, suffix: string): Promise<number> {
  const upload = await cluster.request('POST', '/v1/detections?import_mode=merge', { key: account.key, body: markerRuleZip(ruleId, suffix), headers: ZIP_HEADERS });
  if (upload.status !== 200 || upload.body.accepted !== 1) throw new Error(`rule upload: ${upload.status} ${upload.text}`);
  const uploadedAt = Date.now();
  const hosts = hostPerPartition(account.workspaceId);
  const alerts = new ResultFeed('alerts', (url) => cluster.request('GET', url, { key: account.key }));
  const covered = new Set<string>();
  let round = 0;
  await eventually(
    async () => {
      round++;
      const gateways = cluster.gateways;
      await Promise.all(
        gateways.map(async (gateway, g) => {
          const mine = hosts.filter((_, i) => i % gateways.length === g);
          const body = mine.map((ip) => JSON.stringify(markerEvent(`probe${round}-${ip.replace(/\./g, '-')}`, ip, suffix))).join('\n') + '\n';
          const res = await cluster.request('POST', '/v1/events/dns', { via: gateway, key: account.key, body });
          if (res.status !== 200) throw new Error(`probe on ${gateway.name}: ${res.status} ${res.text}`);
        }),
      );
      for (const alert of await alerts.poll()) {
        if (markerToken(alert, suffix) !== undefined && alert.detections.some((d: any) => d.id === `sigma:${ruleId}`)) covered.add(alert.event.srcIP);
      }
      return hosts.every((ip) => covered.has(ip)) ? true : undefined;
    },
    60_000,
    1_000,
  );
  return Date.now() - uploadedAt;
}
