import type { IpEvent } from '@vigil/contracts';
import { checkCount } from './checks';
import { ephemeralPort, hostPool, networkResolvers, serviceAddress, type Host, type NetworkOptions } from './network';
import { seeded } from './seeded';
import { timeline } from './timeline';

/** Upstreams the network's own resolvers forward to. */
const UPSTREAM_RESOLVERS: readonly string[] = ['8.8.8.8', '8.8.4.4', '1.1.1.1', '1.0.0.1', '9.9.9.9'];
/** Share of port-53 flows that are a resolver forwarding upstream rather than a host asking its resolver. */
const UPSTREAM_SHARE = 0.2;

interface Service {
  port: number;
  proto: 'tcp' | 'udp';
  app: string;
}
const IP_SERVICES: readonly (readonly [Service, number])[] = [
  [{ port: 443, proto: 'tcp', app: 'https' }, 55],
  [{ port: 80, proto: 'tcp', app: 'http' }, 10],
  [{ port: 53, proto: 'udp', app: 'dns' }, 15],
  [{ port: 443, proto: 'udp', app: 'quic' }, 8],
  [{ port: 123, proto: 'udp', app: 'ntp' }, 4],
  [{ port: 993, proto: 'tcp', app: 'imaps' }, 3],
  [{ port: 5223, proto: 'tcp', app: 'apns' }, 3],
  [{ port: 22, proto: 'tcp', app: 'ssh' }, 2],
];

/**
 * Connections from internal hosts to public services (HTTPS, QUIC, NTP, ...) and DNS the way a managed network
 * does it: hosts ask the network's resolvers ({@link networkResolvers}), which forward to public upstreams.
 */
export function ipEvents(n: number, opts: NetworkOptions = {}): IpEvent[] {
  checkCount(n);
  const rng = seeded('ip', opts.seed);
  const hosts = hostPool(opts);
  const resolvers = networkResolvers(opts);
  const resolverHosts: Host[] = resolvers.map((ip, i) => ({ ip, name: `dns-${i + 1}`, mac: '' }));
  const nextTs = timeline(rng, opts);
  return Array.from({ length: n }, () => {
    const service = rng.weighted(IP_SERVICES);
    const forwarding = service.port === 53 && rng.chance(UPSTREAM_SHARE);
    const host = forwarding ? rng.pick(resolverHosts) : rng.pick(hosts);
    const bytesOut = Math.round(rng.exponential(2_000)) + 60;
    const bytesIn = Math.round(rng.exponential(40_000)) + 60;
    return {
      ts: nextTs(),
      srcIP: host.ip,
      srcPort: ephemeralPort(rng),
      srcHost: host.name,
      destIP: service.port !== 53 ? serviceAddress(rng) : forwarding ? rng.pick(UPSTREAM_RESOLVERS) : rng.pick(resolvers),
      destPort: service.port,
      proto: service.proto,
      bytesIn,
      bytesOut,
      packetsIn: Math.ceil(bytesIn / 1_400),
      packetsOut: Math.ceil(bytesOut / 1_400),
      app: service.app,
      action: rng.chance(0.97) ? 'allowed' : 'denied',
      duration: Math.round(rng.exponential(8) * 1000) / 1000,
    };
  });
}
