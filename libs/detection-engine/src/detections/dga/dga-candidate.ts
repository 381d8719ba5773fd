import { splitHostname, type SplitHostname } from '../../domain';
import { hostnameSplitOf } from '../../observed-event';
import { registeredDomainTierOf } from '../../popularity/event-tier';
import type { PopularitySet, PopularityTier } from '../../popularity/popularity';
import type { ObservedEvent } from '../detection';
import type { DynamicZoneLookup } from './dynamic-zone';
import { providerAssignedZone } from './provider-assigned';
import { registrableLabel, registrableLabelOfSplit, type RegistrableLabel } from './registrable-label';

/** Suffixes of names that never reach the public DNS (reverse lookups, site-local zones). */
const INTERNAL_SUFFIXES = ['arpa', 'local', 'localdomain', 'lan', 'home', 'internal', 'intranet', 'corp', 'localhost', 'test', 'invalid', 'example'];

/** What decides whether a name is a candidate. */
export interface CandidateRules {
  popularity: PopularitySet;
  minLabelLength: number;
  /** Tiers whose domains are never candidates. */
  establishedTiers: readonly PopularityTier[];
}

/**
 * What judging a name takes besides the rules. The engine works these out once per event for every detection
 * that needs them (the split, the registered domain's tier, the intel lookup behind the zone), so dga_volume
 * judges the names of ranked sites, most of any network's lookups, without a lookup of its own.
 */
export interface NameFacts {
  /** Lower-case, without a trailing dot. */
  hostname: string;
  /** `splitHostname(hostname)`. */
  split: Readonly<SplitHostname> | undefined;
  /** The ranking tier of `split.registeredDomain`. */
  registeredTier: PopularityTier | undefined;
  /** The most specific dynamic DNS zone above the name (dynamic-zone.ts). */
  zone: string | undefined;
}

/**
 * The domain and label a name is a candidate for: a registered domain (or the name below a dynamic DNS zone)
 * in no established tier, not provider-assigned and not internal, with a label at least `minLabelLength` long.
 */
export function candidateOf(facts: NameFacts, rules: CandidateRules): RegistrableLabel | undefined {
  const { hostname, split, zone } = facts;
  const underZone = zone !== undefined && hostname.endsWith(`.${zone}`);
  // The domain judged is the registered one, whose tier the facts hold, unless the name lies under a dynamic DNS
  // zone or has no split (a public suffix itself): then it is looked up below.
  const ownDomain = !underZone && split !== undefined;
  // The common case first: a ranked site's name.
  if (ownDomain && isEstablished(facts.registeredTier, rules)) return undefined;
  const r = underZone ? labelBelowZone(hostname, zone) : registrableLabelOfSplit(hostname, split);
  if (r === undefined || r.label.length < rules.minLabelLength) return undefined;
  if (INTERNAL_SUFFIXES.includes(r.domain.slice(r.domain.lastIndexOf('.') + 1))) return undefined;
  if (!ownDomain && isEstablished(rules.popularity.tier(r.domain), rules)) return undefined;
  return providerAssignedZone(r.domain) === undefined ? r : undefined;
}

/** The facts of an event's host name (undefined: it has none), from the lookups the engine shares between detections. */
export function nameFactsOf(observed: ObservedEvent, rankings: PopularitySet, dynamicZone?: DynamicZoneLookup): NameFacts | undefined {
  const { hostname } = observed;
  if (hostname === undefined) return undefined;
  const split = hostnameSplitOf(observed);
  return { hostname, split, registeredTier: registeredDomainTierOf(observed, rankings), zone: dynamicZone?.(hostname, split) };
}

/** {@link candidateOf} for a name on its own (the facts worked out here). */
export function judgeCandidate(hostname: string, rules: CandidateRules & { dynamicZone?: DynamicZoneLookup }): RegistrableLabel | undefined {
  const name = hostname.trim().toLowerCase().replace(/\.$/, '');
  const split = splitHostname(name);
  return candidateOf({ hostname: name, split, registeredTier: split && rules.popularity.tier(split.registeredDomain), zone: rules.dynamicZone?.(name) }, rules);
}

function isEstablished(tier: PopularityTier | undefined, rules: CandidateRules): boolean {
  return tier !== undefined && rules.establishedTiers.includes(tier);
}

/** Under a dynamic DNS zone the label below the zone is the one judged. */
function labelBelowZone(hostname: string, zone: string): RegistrableLabel | undefined {
  const under = hostname.slice(0, -zone.length - 1);
  const label = under.slice(under.lastIndexOf('.') + 1);
  const domain = `${label}.${zone}`;
  return registrableLabel(domain) !== undefined ? { domain, label } : undefined;
}
