/**
 * The sustained benchmark's model of a real network: `hosts` internal hosts whose activity is heavy-tailed (a few
 * chatty servers, a long tail of quiet laptops), looking up and connecting to heavy-tailed (Zipf) destinations
 * drawn from the 100,000 most popular domains and 50,000 public addresses, in the usual mix of telemetry types.
 * Events carry no `ts`: the gateway stamps the time of receipt, so a body can be posted again and again and its
 * events still move the detection windows forward, as live traffic does.
 */
import * as fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { TelemetryType } from '@vigil/contracts';
import { createRng, httpEvents, leaseEvents, sharedDir, tlsEvents, type Rng } from '@vigil/testing';

export interface WorkloadOptions {
  hosts: number;
  eventsPerBody: number;
  /** Distinct bodies per type; together they hold the distinct (host, destination) pairs the state must carry. */
  bodiesPerType: number;
  seed: number;
}

export interface Body {
  type: TelemetryType;
  events: number;
  gzip: Buffer;
}

/** Share of events per type, as in a network whose sensors see DNS and flows and a little HTTP/TLS/DHCP. */
export const TYPE_MIX: readonly (readonly [TelemetryType, number])[] = [
  ['dns', 0.55],
  ['ip', 0.35],
  ['tls', 0.05],
  ['http', 0.04],
  ['lease', 0.01],
];

/** Draws ranks 0..n-1 with probability ∝ 1/(rank+1)^s, by inverting a precomputed cumulative table. */
export class Zipf {
  private readonly cumulative: Float64Array;

  constructor(readonly n: number, s: number) {
    this.cumulative = new Float64Array(n);
    let total = 0;
    for (let i = 0; i < n; i++) this.cumulative[i] = total += 1 / Math.pow(i + 1, s);
    for (let i = 0; i < n; i++) this.cumulative[i] /= total;
  }

  draw(rng: Rng): number {
    const u = rng.next();
    let lo = 0;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

function hostIp(index: number): string {
  return `10.${20 + (index >> 16)}.${(index >> 8) & 255}.${index & 255}`;
}

const QTYPES: readonly (readonly [string, number])[] = [['A', 60], ['AAAA', 30], ['HTTPS', 8], ['TXT', 1], ['MX', 1]];
const SUBDOMAINS: readonly (readonly [string, number])[] = [['', 30], ['www', 35], ['api', 10], ['cdn', 8], ['static', 7], ['m', 5], ['mail', 5]];
const SERVICES: readonly (readonly [[number, string, string], number])[] = [
  [[443, 'tcp', 'https'], 60], [[80, 'tcp', 'http'], 12], [[443, 'udp', 'quic'], 12], [[123, 'udp', 'ntp'], 4], [[993, 'tcp', 'imaps'], 4], [[5223, 'tcp', 'apns'], 4], [[22, 'tcp', 'ssh'], 1], [[3389, 'tcp', 'rdp'], 1],
];

class NetworkModel {
  private readonly domains: string[];
  private readonly domainRank: Zipf;
  private readonly hostRank: Zipf;
  private readonly addresses: string[];
  private readonly addressRank: Zipf;

  constructor(private readonly options: WorkloadOptions) {
    this.domains = fs.readFileSync(sharedDir('data', 'benign', 'cloudflare-top100k.txt'), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
    this.domainRank = new Zipf(this.domains.length, 0.9);
    this.hostRank = new Zipf(options.hosts, 0.6);
    const rng = createRng(`addresses-${options.seed}`);
    // Public unicast space outside 10/8, 127/8 and multicast; good enough for destinations of flows.
    this.addresses = Array.from({ length: 50_000 }, () => `${rng.pick([13, 20, 23, 31, 34, 35, 40, 52, 54, 64, 104, 142, 151, 157, 172, 185, 199, 203, 216])}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`);
    this.addressRank = new Zipf(this.addresses.length, 1.0);
  }

  host(rng: Rng): string {
    return hostIp(this.hostRank.draw(rng) + 1);
  }

  hostname(rng: Rng): string {
    const domain = this.domains[this.domainRank.draw(rng)];
    const sub = rng.weighted(SUBDOMAINS);
    return sub ? `${sub}.${domain}` : domain;
  }

  dns(rng: Rng): object {
    return { srcIP: this.host(rng), srcPort: rng.int(49152, 65535), query: this.hostname(rng), qtype: rng.weighted(QTYPES) };
  }

  ip(rng: Rng): object {
    const [destPort, proto, app] = rng.weighted(SERVICES);
    const bytesOut = Math.round(rng.exponential(4000));
    return {
      srcIP: this.host(rng),
      srcPort: rng.int(49152, 65535),
      destIP: this.addresses[this.addressRank.draw(rng)],
      destPort,
      proto,
      app,
      bytesOut,
      bytesIn: Math.round(rng.exponential(40_000)),
      packetsOut: 1 + Math.round(bytesOut / 1200),
      packetsIn: 1 + Math.round(rng.exponential(30)),
      duration: Math.round(rng.exponential(20) * 100) / 100,
      action: 'allowed',
    };
  }
}

function withoutTs<T extends { ts?: string }>(events: T[]): Omit<T, 'ts'>[] {
  return events.map(({ ts: _ts, ...rest }) => rest);
}

/** The generated events of one body of `type`. */
function bodyEvents(model: NetworkModel, type: TelemetryType, index: number, options: WorkloadOptions): object[] {
  const seed = `${options.seed}-${type}-${index}`;
  const rng = createRng(seed);
  const n = options.eventsPerBody;
  // Generated relative to now, so certificates are valid and leases current while the bodies are replayed.
  const sessionHosts = { hosts: Math.min(options.hosts, 60_000), seed, startTs: Date.now() };
  switch (type) {
    case 'dns':
      return Array.from({ length: n }, () => model.dns(rng));
    case 'ip':
      return Array.from({ length: n }, () => model.ip(rng));
    case 'tls':
      return withoutTs(tlsEvents(n, sessionHosts));
    case 'http':
      return withoutTs(httpEvents(n, sessionHosts));
    case 'lease':
      return withoutTs(leaseEvents(n, sessionHosts));
  }
}

/** Every body of the workload, gzip'd NDJSON, grouped by type. */
export function buildWorkload(options: WorkloadOptions): Map<TelemetryType, Body[]> {
  const model = new NetworkModel(options);
  const bodies = new Map<TelemetryType, Body[]>();
  for (const [type] of TYPE_MIX) {
    const list: Body[] = [];
    for (let i = 0; i < options.bodiesPerType; i++) {
      const events = bodyEvents(model, type, i, options);
      list.push({ type, events: events.length, gzip: gzipSync(events.map((e) => JSON.stringify(e)).join('\n') + '\n', { level: 6 }) });
    }
    bodies.set(type, list);
  }
  return bodies;
}
