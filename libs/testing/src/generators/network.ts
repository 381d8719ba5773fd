import type { Rng } from '../prng';
import type { TimelineOptions } from './timeline';

export interface NetworkOptions extends TimelineOptions {
  /** Number of internal hosts producing the traffic. Default 25. */
  hosts?: number;
  /** First two octets of the internal addresses (`10.20` → 10.20.x.y). Default `10.20`. */
  subnet?: string;
  /**
   * The network's DNS resolvers: hosts send DNS only to them, and they forward to public upstreams. Pass the
   * same list to the engine as `configuredResolvers`. Default {@link networkResolvers} (`<subnet>.0.2`, `.0.3`).
   */
  resolvers?: readonly string[];
}

/**
 * Networks of large first-party services and CDN edges (Google, Fastly, Cloudflare, Microsoft 365, Facebook,
 * Apple, Akamai, GitHub, CloudFront), as published by their operators: destinations of benign traffic. Not
 * whole /16s and not rentable cloud compute, whose addresses can be anyone's server, C2 included.
 */
export const SERVICE_NETWORKS: readonly string[] = [
  '142.250.0.0/15', '172.217.0.0/16', '216.58.192.0/19', '151.101.0.0/16', '104.16.0.0/13', '13.107.0.0/16',
  '52.96.0.0/14', '20.190.128.0/18', '40.126.0.0/18', '31.13.64.0/18', '157.240.0.0/16', '17.253.0.0/16',
  '23.32.0.0/11', '185.199.108.0/22', '199.232.0.0/16', '54.230.0.0/16',
];

export interface Host {
  ip: string;
  name: string;
  mac: string;
}

export function hostPool(opts: NetworkOptions): Host[] {
  const count = opts.hosts ?? 25;
  if (!Number.isInteger(count) || count < 1 || count > 60_000) {
    throw new RangeError(`hosts must be an integer between 1 and 60000, got ${count}`);
  }
  const subnet = opts.subnet ?? '10.20';
  if (!/^\d{1,3}\.\d{1,3}$/.test(subnet) || subnet.split('.').some((o) => Number(o) > 255)) {
    throw new RangeError(`subnet must be two octets such as "10.20", got "${subnet}"`);
  }
  return Array.from({ length: count }, (_, i) => {
    const third = Math.floor(i / 240);
    const fourth = (i % 240) + 10;
    const hex = (v: number) => v.toString(16).padStart(2, '0');
    return {
      ip: `${subnet}.${third}.${fourth}`,
      name: `ws-${String(i + 1).padStart(3, '0')}`,
      mac: `02:00:00:${hex(third)}:${hex(fourth)}:${hex((i * 7) & 0xff)}`,
    };
  });
}

export function ephemeralPort(rng: Rng): number {
  return rng.int(49152, 65535);
}

/** A host address inside one of {@link SERVICE_NETWORKS} (never the network or broadcast address). */
export function serviceAddress(rng: Rng): string {
  const [base, bits] = rng.pick(SERVICE_NETWORKS).split('/');
  const size = 2 ** (32 - Number(bits));
  const start = base.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
  const value = start + rng.int(1, size - 2);
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.');
}

/** The resolvers the generated hosts use: `opts.resolvers`, or `<subnet>.0.2` and `<subnet>.0.3`. */
export function networkResolvers(opts: NetworkOptions = {}): string[] {
  if (opts.resolvers !== undefined) {
    if (opts.resolvers.length === 0) throw new RangeError('resolvers must not be empty');
    for (const ip of opts.resolvers) {
      if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) throw new RangeError(`each of resolvers must be an IPv4 address, got "${ip}"`);
    }
    return [...opts.resolvers];
  }
  const subnet = opts.subnet ?? '10.20';
  return [`${subnet}.0.2`, `${subnet}.0.3`];
}
