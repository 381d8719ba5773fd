import type { DnsEvent } from '@vigil/contracts';
import { checkCount } from './checks';
import { popularHostname } from './hostnames';
import { ephemeralPort, hostPool, type NetworkOptions } from './network';
import { seeded } from './seeded';
import { timeline } from './timeline';

const DNS_QTYPES: readonly (readonly [string, number])[] = [
  ['A', 60], ['AAAA', 28], ['HTTPS', 6], ['CNAME', 2], ['MX', 1], ['TXT', 1], ['PTR', 1], ['SRV', 1],
];

/** Firefox's DoH canary: looked up by every Firefox to learn whether the network wants DoH off. */
const DOH_CANARY = 'use-application-dns.net';
const DOH_CANARY_SHARE = 0.005;

/**
 * Ordinary lookups of popular sites (with www/api/cdn/... subdomains) by a pool of internal hosts, and now and
 * then Firefox's DoH canary.
 */
export function benignDnsEvents(n: number, opts: NetworkOptions = {}): DnsEvent[] {
  checkCount(n);
  const rng = seeded('dns-benign', opts.seed);
  const hosts = hostPool(opts);
  const nextTs = timeline(rng, opts);
  return Array.from({ length: n }, () => {
    const host = rng.pick(hosts);
    return {
      ts: nextTs(),
      srcIP: host.ip,
      srcPort: ephemeralPort(rng),
      srcHost: host.name,
      query: rng.chance(DOH_CANARY_SHARE) ? DOH_CANARY : popularHostname(rng),
      qtype: rng.weighted(DNS_QTYPES),
    };
  });
}
