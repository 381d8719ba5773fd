import { murmur2Partition } from '@vigil/bus';
import { telemetryKey, TOPICS, type DnsEvent, type IpEvent } from '@vigil/contracts';
import { benignDnsEvents, ipEvents, oastDnsEvents, tunnelDnsEvents } from '@vigil/testing';

/** One request body's worth of events of one type. */
export interface Post {
  type: 'dns' | 'ip';
  events: (DnsEvent | IpEvent)[];
}

/** The hosts of the mixed workload and what each of them does. */
export const HOSTS = {
  tunnel: '10.61.0.11',
  scanner: '10.61.0.12',
  oast: '10.61.0.13',
  c2: '10.61.0.14',
} as const;

/** A domain the shipped intel seed lists as command-and-control (see the intel detector's tests). */
export const C2_DOMAIN = 'update.0debug.cc';

const SCAN_PORTS = [21, 22, 23, 25, 53, 80, 110, 111, 135, 139, 143, 443, 445, 993, 995, 1723, 3306, 3389, 5900, 8080, 8443];

/**
 * 10 hosts × 21 ports within 30 s, refused by the firewall: vertical scans. (Unanswered attempts are told by
 * `action`: zero byte counters are dropped at ingest as "absent", so `bytesIn: 0` cannot say it over HTTP.)
 */
function portScan(srcIP: string, startMs: number): IpEvent[] {
  return Array.from({ length: 210 }, (_, i) => ({
    ts: new Date(startMs + i * 140).toISOString(),
    srcIP,
    destIP: `185.199.108.${1 + Math.floor(i / 21)}`,
    destPort: SCAN_PORTS[i % 21],
    proto: 'tcp',
    bytesOut: 60,
    packetsOut: 1,
    action: 'rejected',
  }));
}

/**
 * The mixed workload: a DNS tunnel, a port scan, OAST callbacks and a C2 lookup, each from its own host, under
 * benign DNS and IP traffic of 24 more hosts — so that the hosts' keys spread over the events topic's
 * partitions. Fixed timestamps (from `startMs`), so that two runs of it produce the same findings.
 */
export function mixedWorkload(startMs: number): (DnsEvent | IpEvent)[] {
  const at = (offsetMs: number) => new Date(startMs + offsetMs).toISOString();
  return [
    ...benignDnsEvents(240, { seed: 'dist', hosts: 24, subnet: '10.62', startTs: startMs, intervalMs: 100 }),
    ...ipEvents(120, { seed: 'dist', hosts: 24, subnet: '10.62', startTs: startMs, intervalMs: 200 }),
    ...tunnelDnsEvents(60, { domain: 'tn.exfil-tunnel-test.net', srcIP: HOSTS.tunnel, startTs: startMs, intervalMs: 400 }),
    ...portScan(HOSTS.scanner, startMs),
    ...oastDnsEvents(6, { seed: 'dist', srcIP: HOSTS.oast, startTs: startMs, intervalMs: 2_000 }),
    { ts: at(1_000), srcIP: HOSTS.c2, query: C2_DOMAIN, qtype: 'A' } as DnsEvent,
  ];
}

function isIpEvent(event: DnsEvent | IpEvent): event is IpEvent {
  return 'destIP' in event;
}

/**
 * Splits events into request bodies for `gateways` gateways: every host is pinned to one gateway (hosts taken
 * in turn), so a host's events keep their order whatever the replica; one body per (gateway, type).
 */
export function postsPerGateway(events: (DnsEvent | IpEvent)[], gateways: number): Post[][] {
  const hostGateway = new Map<string, number>();
  const plan: Post[][] = Array.from({ length: gateways }, () => [
    { type: 'dns', events: [] },
    { type: 'ip', events: [] },
  ]);
  for (const event of events) {
    const srcIP = event.srcIP as string;
    if (!hostGateway.has(srcIP)) hostGateway.set(srcIP, hostGateway.size % gateways);
    plan[hostGateway.get(srcIP)!][isIpEvent(event) ? 1 : 0].events.push(event);
  }
  return plan.map((posts) => posts.filter((post) => post.events.length > 0));
}

/** One source address per partition of the events topic for `workspaceId` (its keys cover every partition). */
export function hostPerPartition(workspaceId: string, subnet = '10.70'): string[] {
  const partitions = TOPICS.events.partitions;
  const chosen = new Map<number, string>();
  for (let i = 1; chosen.size < partitions && i < 65_000; i++) {
    const ip = `${subnet}.${i >> 8}.${i & 255}`;
    const partition = murmur2Partition(telemetryKey(workspaceId, ip), partitions);
    if (!chosen.has(partition)) chosen.set(partition, ip);
  }
  return [...chosen.entries()].sort(([a], [b]) => a - b).map(([, ip]) => ip);
}
