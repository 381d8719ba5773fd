import { BoundedMemo } from '../../bounded-memo';
import type { PopularitySet, PopularityTier } from '../../popularity/popularity';
import type { DgaModel } from './dga-model';
import type { DynamicZoneLookup } from './dynamic-zone';
import { providerAssignedZone } from './provider-assigned';
import { registrableLabel, type RegistrableLabel } from './registrable-label';

/**
 * dga_volume's per-name work depends on the name alone (given the rankings, zones, options and model): which
 * domain and label a name is a candidate for, and a label's DGA score. Every partition's detector in a thread
 * sees the same names, so one memo per thread serves them all: a better hit rate for less memory than one each.
 */
const CANDIDATE_MEMO_SIZE = 32_768;
const SCORE_MEMO_SIZE = 32_768;
const MAX_HOSTNAME_LENGTH = 253;

/** Suffixes of names that never reach the public DNS (reverse lookups, site-local zones). */
const INTERNAL_SUFFIXES = ['arpa', 'local', 'localdomain', 'lan', 'home', 'internal', 'intranet', 'corp', 'localhost', 'test', 'invalid', 'example'];

/** What decides whether a name is a candidate. */
export interface CandidateRules {
  popularity: PopularitySet;
  dynamicZone?: DynamicZoneLookup;
  minLabelLength: number;
  /** Tiers whose domains are never candidates. */
  establishedTiers: readonly PopularityTier[];
}

/** Candidate verdicts under one set of rules, dropped whenever the dynamic DNS zones change. */
export class CandidateMemo {
  private memo: BoundedMemo<RegistrableLabel | undefined>;
  private generation: number;

  constructor(private readonly rules: CandidateRules) {
    this.memo = this.newMemo();
    this.generation = this.currentGeneration();
  }

  /** The name's candidate domain and label, or undefined when it is no candidate. */
  get(hostname: string): RegistrableLabel | undefined {
    const generation = this.currentGeneration();
    if (generation !== this.generation) {
      this.memo = this.newMemo();
      this.generation = generation;
    }
    return this.memo.get(hostname);
  }

  private currentGeneration(): number {
    return this.rules.dynamicZone?.generation?.() ?? 0;
  }

  private newMemo(): BoundedMemo<RegistrableLabel | undefined> {
    return new BoundedMemo(CANDIDATE_MEMO_SIZE, (hostname) => judgeCandidate(hostname, this.rules), MAX_HOSTNAME_LENGTH);
  }
}

/**
 * A registered domain (or name under a dynamic DNS zone) that is in no established tier, not provider-assigned
 * and not internal, with a label at least `minLabelLength` long: a pure function of the name.
 */
export function judgeCandidate(hostname: string, rules: CandidateRules): RegistrableLabel | undefined {
  const r = candidateLabel(hostname, rules.dynamicZone);
  if (r === undefined || r.label.length < rules.minLabelLength) return undefined;
  const tld = r.domain.slice(r.domain.lastIndexOf('.') + 1);
  if (INTERNAL_SUFFIXES.includes(tld)) return undefined;
  const tier = rules.popularity.tier(r.domain);
  if ((tier !== undefined && rules.establishedTiers.includes(tier)) || providerAssignedZone(r.domain) !== undefined) return undefined;
  return r;
}

/** Under a dynamic DNS zone the label below the zone is the one judged; elsewhere the registrable label. */
function candidateLabel(hostname: string, dynamicZone: DynamicZoneLookup | undefined): RegistrableLabel | undefined {
  const zone = dynamicZone?.(hostname);
  if (zone === undefined) return registrableLabel(hostname);
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (!name.endsWith(`.${zone}`)) return registrableLabel(hostname);
  const under = name.slice(0, -zone.length - 1);
  const label = under.slice(under.lastIndexOf('.') + 1);
  return registrableLabel(`${label}.${zone}`) !== undefined ? { domain: `${label}.${zone}`, label } : undefined;
}

/** Memos by rankings, then by zone lookup (weakly held: a test's or a reload's objects go with their memos), then by options. */
const candidateMemos = new WeakMap<PopularitySet, WeakMap<object, Map<string, CandidateMemo>>>();
const NO_ZONES = {};

/** The thread's candidate memo for these rules (the same object for every detector judging alike). */
export function sharedCandidateMemo(rules: CandidateRules): CandidateMemo {
  let byZones = candidateMemos.get(rules.popularity);
  if (byZones === undefined) candidateMemos.set(rules.popularity, (byZones = new WeakMap()));
  const zones = rules.dynamicZone ?? NO_ZONES;
  let byOptions = byZones.get(zones);
  if (byOptions === undefined) byZones.set(zones, (byOptions = new Map()));
  const key = `${rules.minLabelLength}|${[...rules.establishedTiers].sort().join(',')}`;
  let memo = byOptions.get(key);
  if (memo === undefined) byOptions.set(key, (memo = new CandidateMemo(rules)));
  return memo;
}

const scoreMemos = new WeakMap<DgaModel, BoundedMemo<number>>();

/** The thread's memo of label scores under `model`. */
export function sharedScoreMemo(model: DgaModel): BoundedMemo<number> {
  let memo = scoreMemos.get(model);
  if (memo === undefined) scoreMemos.set(model, (memo = new BoundedMemo(SCORE_MEMO_SIZE, (label) => model.scoreLabel(label), 63)));
  return memo;
}
