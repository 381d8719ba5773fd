import type { SplitHostname } from '../../domain';
import type { IndicatorStore } from '../../intel/indicator-store';

/** Intel category of the seed's dynamic DNS zones (`freedns:dynamic-dns`). */
const DYNAMIC_DNS_CATEGORY = 'freedns';

/** The most specific dynamic DNS zone above a host name (whose split may be given), or undefined. */
export type DynamicZoneLookup = (hostname: string, split?: Readonly<SplitHostname>) => string | undefined;

/**
 * The most specific dynamic DNS zone of the intel data above a name (`mooo.com` for `abc.mooo.com`), for
 * dga_volume: a generator under such a zone picks the label below it, and many of these zones are not public
 * suffixes, so the registered domain would be the provider's. Asked on every lookup, so reloaded intel counts at once.
 */
export function dynamicDnsZoneOf(intel: Pick<IndicatorStore, 'matchNamedDomain'>): DynamicZoneLookup {
  // The intel detections look the same name up for the same event: the split keeps the matches for them.
  return (hostname, split) => {
    for (const match of intel.matchNamedDomain(hostname, split)) {
      if (match.kind === 'domain' && match.category === DYNAMIC_DNS_CATEGORY && match.indicator !== hostname) return match.indicator;
    }
    return undefined;
  };
}
