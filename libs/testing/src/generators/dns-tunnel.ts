import type { DnsEvent } from '@vigil/contracts';
import type { Rng } from '../prng';
import { BASE32, HEX } from './alphabets';
import { checkCount, checkDomain } from './checks';
import { ephemeralPort } from './network';
import { seeded } from './seeded';
import { checkInterval, toEpochMs } from './timeline';

export interface TunnelDnsOptions {
  /** Registered domain the tunnel runs under, e.g. `t.example-tunnel.net`. */
  domain: string;
  srcIP: string;
  startTs: Date | number | string;
  /** Exact gap between consecutive queries, in milliseconds. */
  intervalMs: number;
  seed?: number | string;
  /** Alphabet of the encoded labels. Default `base32`. */
  encoding?: 'base32' | 'hex';
  srcHost?: string;
}

const MAX_QUERY_LENGTH = 253;

/** Splits `payload` into DNS labels of at most 63 characters. */
function toLabels(rng: Rng, payload: string): string[] {
  const labels: string[] = [];
  for (let i = 0; i < payload.length; ) {
    const size = Math.min(rng.int(48, 63), payload.length - i);
    labels.push(payload.slice(i, i + size));
    i += size;
  }
  return labels;
}

/**
 * A DNS tunnel: one host querying long encoded labels (base32 or hex) under one domain at a fixed rate.
 * Each query carries about 100–200 characters of encoded payload and stays within 253 characters.
 */
export function tunnelDnsEvents(n: number, opts: TunnelDnsOptions): DnsEvent[] {
  checkCount(n);
  checkDomain(opts.domain, 'domain');
  const rng = seeded(`dns-tunnel:${opts.domain}`, opts.seed);
  const start = toEpochMs(opts.startTs, 'startTs');
  const interval = checkInterval(opts.intervalMs, 0);
  const alphabet = (opts.encoding ?? 'base32') === 'hex' ? HEX : BASE32;
  // Room for the payload: the whole name minus the domain, with one dot per label (at most 4 labels).
  const budget = MAX_QUERY_LENGTH - opts.domain.length - 4;
  if (budget < 40) throw new RangeError(`domain "${opts.domain}" is too long to carry tunnel labels`);
  return Array.from({ length: n }, (_, i) => {
    const payload = rng.string(alphabet, rng.int(Math.min(100, budget), Math.min(200, budget)));
    const event: DnsEvent = {
      ts: new Date(start + i * interval).toISOString(),
      srcIP: opts.srcIP,
      srcPort: ephemeralPort(rng),
      query: `${toLabels(rng, payload).join('.')}.${opts.domain}`,
      qtype: rng.weighted([['TXT', 6], ['CNAME', 2], ['NULL', 1], ['MX', 1]] as const),
    };
    if (opts.srcHost) event.srcHost = opts.srcHost;
    return event;
  });
}
