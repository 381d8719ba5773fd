import type { IndicatorStore } from '../../intel/indicator-store';

/** Intel category of the seed's dynamic DNS zones (`freedns:dynamic-dns`). */
const DYNAMIC_DNS_CATEGORY = 'freedns';

/**
 * The most specific dynamic DNS zone above a host name, or undefined. `generation`, when present, changes
 * whenever the answers may have changed (intel lists reloaded); without it the answers never change.
 */
export interface DynamicZoneLookup {
  (hostname: string): string | undefined;
  readonly generation?: () => number;
}

/**
 * The most specific dynamic DNS zone of the intel data above a name (`mooo.com` for `abc.mooo.com`), for
 * dga_volume: a generator under such a zone picks the label below it, and many of these zones are not public
 * suffixes, so the registered domain would be the provider's.
 */
export function dynamicDnsZoneOf(intel: ZoneIntel): DynamicZoneLookup {
  // The intel detections look the same name up for the same event: the store's memo answers the second at once.
  const lookup = (hostname: string): string | undefined => {
    for (const match of intel.matchDomain(hostname)) {
      if (match.kind === 'domain' && match.category === DYNAMIC_DNS_CATEGORY && match.indicator !== hostname) return match.indicator;
    }
    return undefined;
  };
  return intel.generation === undefined ? lookup : Object.assign(lookup, { generation: () => intel.generation ?? 0 });
}

type ZoneIntel = Pick<IndicatorStore, 'matchDomain'> & Partial<Pick<IndicatorStore, 'generation'>>;
