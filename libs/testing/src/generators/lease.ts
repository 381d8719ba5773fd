import type { LeaseEvent } from '@vigil/contracts';
import { checkCount } from './checks';
import { hostPool, type NetworkOptions } from './network';
import { seeded } from './seeded';
import { timeline } from './timeline';

/** DHCP lease changes of the host pool; `srcIP` is the leased address, released and expired leases terminate. */
export function leaseEvents(n: number, opts: NetworkOptions = {}): LeaseEvent[] {
  checkCount(n);
  const rng = seeded('lease', opts.seed);
  const hosts = hostPool(opts);
  const nextTs = timeline(rng, { ...opts, intervalMs: opts.intervalMs ?? 30_000 });
  return Array.from({ length: n }, () => {
    const host = rng.pick(hosts);
    const type = rng.weighted([['assign', 3], ['renew', 5], ['release', 1], ['expire', 1]] as const);
    const event: LeaseEvent = {
      ts: nextTs(),
      srcIP: host.ip,
      srcMac: host.mac,
      srcHost: host.name,
      type,
      termination: type === 'release' || type === 'expire',
    };
    if (!event.termination) event.duration = rng.pick([86_400, 43_200, 3_600, 3_599.5]);
    return event;
  });
}
