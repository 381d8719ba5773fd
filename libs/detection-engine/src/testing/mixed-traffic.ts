import type { DnsEvent, IpEvent, LeaseEvent, TelemetryBatch, TelemetryEvent, TelemetryType } from '@vigil/contracts';
import { benignDnsEvents, createRng, httpEvents, ipEvents, leaseEvents, tlsEvents, tunnelDnsEvents } from '@vigil/testing';

/**
 * Deterministic batches of mixed telemetry, one minute of event time per step: ordinary DNS, flows, HTTP, TLS
 * and DHCP leases of a host pool, with attacks spread over the steps so that detection windows are open
 * across step boundaries: a DNS tunnel, DGA bursts, MX lookups, vertical and horizontal port scans, a beacon
 * over the whole run, ICMP tunnelling, SSH exfiltration, direct SMTP and an unusual port. Attack hosts send
 * no srcHost: their names come from leases, and one address changes hands half-way.
 */
export interface MixedTrafficOptions {
  steps: number;
  /** Host pool of the ordinary traffic (10.20.x.y). */
  hosts: number;
  /** Ordinary events of each type per step, per 25 hosts. */
  perStep?: number;
  seed?: string;
  workspaceId?: string;
  startMs?: number;
}

export const MIXED_TRAFFIC_START = Date.parse('2026-05-04T08:00:00Z');
const STEP_MS = 60_000;

const ATTACK = {
  tunnel: '10.66.0.7',
  dga: '10.66.0.8',
  mx: '10.66.0.9',
  vertical: '10.66.0.10',
  horizontal: '10.66.0.11',
  beacon: '10.66.0.12',
  icmp: '10.66.0.13',
  ssh: '10.66.0.14',
  smtp: '10.66.0.15',
  unusual: '10.66.0.16',
} as const;

const iso = (ms: number) => new Date(ms).toISOString();

function flow(srcIP: string, timeMs: number, fields: Partial<IpEvent>): IpEvent {
  return { ts: iso(timeMs), srcIP, srcPort: 50_000 + (timeMs % 10_000), proto: 'tcp', ...fields };
}

function icmp(srcIP: string, timeMs: number, destIP: string, bytesOut: number): IpEvent {
  return { ts: iso(timeMs), srcIP, proto: 'icmp', destIP, bytesOut, packetsOut: 1 };
}

/** Random-looking registrable names, as a DGA produces. */
function dgaDomain(rng: ReturnType<typeof createRng>): string {
  return `${rng.string('bcdfghjklmnpqrstvwxz', rng.int(12, 18))}.${rng.pick(['com', 'net', 'info', 'biz'])}`;
}

function attacksAt(step: number, t0: number, rng: ReturnType<typeof createRng>, steps: number): Partial<Record<TelemetryType, TelemetryEvent[]>> {
  const dns: DnsEvent[] = [];
  const ip: IpEvent[] = [];
  const lease: LeaseEvent[] = [];
  const at = (i: number, n: number) => t0 + Math.floor((i * STEP_MS) / n);
  if (step === 0) {
    for (const [name, address] of Object.entries(ATTACK)) {
      lease.push({ ts: iso(t0), srcIP: address, srcMac: `02:00:00:00:00:${address.split('.')[3].padStart(2, '0')}`, srcHost: `${name}-box`, type: 'assign', duration: 86_400 });
    }
  }
  if (step === Math.floor(steps / 2)) {
    // The tunnel host's address goes to another machine: its later events belong to that one.
    lease.push({ ts: iso(t0 + 1_000), srcIP: ATTACK.tunnel, srcHost: 'tunnel-box', type: 'release', termination: true });
    lease.push({ ts: iso(t0 + 2_000), srcIP: ATTACK.tunnel, srcMac: '02:00:00:00:01:07', srcHost: 'other-box', type: 'assign', duration: 3_600 });
  }
  if (step % 3 !== 2) dns.push(...tunnelDnsEvents(12, { domain: 'exfil-tunnel.net', srcIP: ATTACK.tunnel, startTs: t0 + 500, intervalMs: 4_000, seed: `tunnel:${step}` }));
  if (step % 4 === 1 || step % 4 === 2) for (let i = 0; i < 4; i++) dns.push({ ts: iso(at(i, 4) + 7_000), srcIP: ATTACK.dga, query: dgaDomain(rng), qtype: 'A' });
  if (step % 5 === 3) for (let i = 0; i < 10; i++) dns.push({ ts: iso(at(i, 10)), srcIP: ATTACK.mx, query: `mail-${step}-${i}.example${i}.org`, qtype: 'MX' });
  if (step % 6 === 0 || step % 6 === 1) {
    for (let i = 0; i < 20; i++) ip.push(flow(ATTACK.vertical, at(i, 20) + 30_000, { destIP: '45.77.113.5', destPort: 20 + step * 20 + i, bytesOut: 60, packetsOut: 1, bytesIn: 0, packetsIn: 0 }));
  }
  if (step % 7 === 4 || step % 7 === 5) {
    for (let i = 0; i < 24; i++) ip.push(flow(ATTACK.horizontal, at(i, 24) + 20_000, { destIP: `45.78.${step % 7}.${(step * 24 + i) % 250}`, destPort: 445, bytesOut: 60, packetsOut: 1, bytesIn: 0 }));
  }
  ip.push(flow(ATTACK.beacon, t0 + 5_000 + rng.int(0, 3_000), { destIP: '45.79.2.77', destPort: 8443, bytesOut: 900, bytesIn: 2_000, packetsOut: 2, packetsIn: 3, app: 'https' }));
  if (step % 4 === 0) for (let i = 0; i < 50; i++) ip.push(icmp(ATTACK.icmp, at(i, 50), '45.79.2.99', 1_400));
  if (step % 2 === 1) ip.push(flow(ATTACK.ssh, t0 + 40_000, { destIP: '45.79.2.30', destPort: 22, app: 'ssh', bytesOut: 20_000_000, bytesIn: 50_000, duration: 55 }));
  if (step % 5 === 4) for (let i = 0; i < 9; i++) ip.push(flow(ATTACK.smtp, at(i, 9), { destIP: `45.79.2.${120 + i}`, destPort: 25, bytesOut: 3_000, bytesIn: 400 }));
  if (step % 3 === 0) for (let i = 0; i < 6; i++) ip.push(flow(ATTACK.unusual, at(i, 6), { destIP: '45.79.2.44', destPort: 4444, bytesOut: 300, bytesIn: 300, packetsIn: 1 }));
  return { dns, ip, lease };
}

/** Batches in processing order; batch ids are unique and stable. */
export function mixedTrafficBatches(options: MixedTrafficOptions): TelemetryBatch[] {
  const { steps, hosts } = options;
  const seed = options.seed ?? 'mixed';
  const workspaceId = options.workspaceId ?? 'ws-mixed';
  const start = options.startMs ?? MIXED_TRAFFIC_START;
  const per = Math.max(1, Math.round(((options.perStep ?? 40) * hosts) / 25));
  const rng = createRng(`mixed:${seed}`);
  const batches: TelemetryBatch[] = [];
  const push = (step: number, type: TelemetryType, events: TelemetryEvent[]) => {
    if (events.length === 0) return;
    const sorted = [...events].sort((a, b) => Date.parse(a.ts as string) - Date.parse(b.ts as string));
    batches.push({ v: 1, workspaceId, batchId: `${seed}-${step}-${type}`, type, receivedAt: start + (step + 1) * STEP_MS, events: sorted });
  };
  for (let step = 0; step < steps; step++) {
    const t0 = start + step * STEP_MS;
    const common = { seed: `${seed}:${step}`, startTs: t0, intervalMs: STEP_MS / per, hosts };
    const attacks = attacksAt(step, t0, rng, steps);
    push(step, 'lease', [...(attacks.lease ?? []), ...(step % 5 === 0 ? leaseEvents(Math.max(1, Math.round(per / 8)), { ...common, intervalMs: STEP_MS / per }) : [])]);
    push(step, 'dns', [...benignDnsEvents(per, common), ...(attacks.dns ?? [])]);
    push(step, 'ip', [...ipEvents(per, common), ...(attacks.ip ?? [])]);
    push(step, 'http', httpEvents(Math.ceil(per / 2), common));
    push(step, 'tls', tlsEvents(Math.ceil(per / 3), common));
  }
  return batches;
}
