import { tunnelDnsEvents } from '@vigil/testing';
import type { DnsEvent } from '@vigil/contracts';

/** A burst of tunnel-like DNS queries from one host over the last half minute. */
export function tunnelQueries(srcIP: string, domain: string, count: number): DnsEvent[] {
  return tunnelDnsEvents(count, { domain, srcIP, startTs: Date.now() - 30_000, intervalMs: 500, srcHost: 'wks-' + srcIP.split('.').pop() });
}
