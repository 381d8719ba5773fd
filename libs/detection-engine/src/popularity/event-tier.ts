import type { ObservedEvent } from '../detections/detection';
import { hostnameSplitOf } from '../observed-event';
import type { PopularitySet, PopularityTier } from './popularity';

let lastEvent: ObservedEvent | undefined;
let lastRankings: PopularitySet | undefined;
let lastTier: PopularityTier | undefined;

/**
 * The ranking tier of the event's registered domain, looked up once per event for every detection that asks
 * (dga_volume, imposter_domain): the rankings hold 100,000 names, and a lookup in a map that large mostly misses
 * the CPU caches. Remembering the latest event is enough, as the engine hands each event to every detection in turn.
 */
export function registeredDomainTierOf(observed: ObservedEvent, rankings: PopularitySet): PopularityTier | undefined {
  if (observed !== lastEvent || rankings !== lastRankings) {
    const domain = hostnameSplitOf(observed)?.registeredDomain;
    lastTier = domain === undefined ? undefined : rankings.tier(domain);
    lastEvent = observed;
    lastRankings = rankings;
  }
  return lastTier;
}
