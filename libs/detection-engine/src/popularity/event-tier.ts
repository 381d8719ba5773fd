import type { ObservedEvent } from '../detections/detection';
import type { SplitHostname } from '../domain';
import { hostnameSplitOf } from '../observed-event';
import type { PopularitySet, PopularityTier } from './popularity';

let lastEvent: ObservedEvent | undefined;
let lastRankings: PopularitySet | undefined;
let lastTier: PopularityTier | undefined;

/**
 * The ranking tier of the event's registered domain, looked up once per event for every detection that asks
 * (dga_volume, imposter_domain), and once per name while its split stays in the split memo (SplitHostname.memo):
 * the rankings hold 100,000 names, and a lookup in a map that large mostly misses the CPU caches. Remembering the
 * latest event is enough, as the engine hands each event to every detection in turn.
 */
export function registeredDomainTierOf(observed: ObservedEvent, rankings: PopularitySet): PopularityTier | undefined {
  if (observed !== lastEvent || rankings !== lastRankings) {
    lastTier = tierOfSplit(hostnameSplitOf(observed), rankings);
    lastEvent = observed;
    lastRankings = rankings;
  }
  return lastTier;
}

/** The tier of a split name's registered domain in `rankings`, kept with the split (SplitHostname.memo). */
export function tierOfSplit(split: Readonly<SplitHostname> | undefined, rankings: PopularitySet): PopularityTier | undefined {
  if (split === undefined) return undefined;
  const memo = split.memo;
  if (memo.rankings !== rankings) {
    memo.tier = rankings.tier(split.registeredDomain);
    memo.rankings = rankings;
  }
  return memo.tier;
}
