import type { KeyedState } from '../../state/state-budget';
import type { Wisdom } from '@vigil/contracts';
import { LruMap } from '../../state/lru-map';
import type { SnapshotEventReader, SnapshotEventWriter } from '../../state/event-table';
import { readLru, writeLru } from '../../state/lru-snapshot';
import { OccurrenceWindow, readOccurrenceWindow, writeOccurrenceWindow, type OccurrenceDataCodec } from '../../state/occurrence-window';
import { readNumber, readObject, writeNumber } from '../../state/snapshot';
import { defaultPopularity, type PopularitySet, type PopularityTier } from '../../popularity/popularity';
import type {
  DetectionDefinition,
  DetectionHit,
  Detector,
  DetectorStateStats,
  EvidenceEvent,
  ObservedEvent,
} from '../detection';
import { BoundedMemo } from '../../bounded-memo';
import { defaultKinshipNull, type KinshipNull } from './kinship-null';
import { kinshipLabels, labelKinship } from './label-kinship';
import { defaultTldNull, TLD_P_FLOOR, type TldEvidence, type TldNull } from './tld-null';
import { suffixOfRegistrable } from './registrable-label';
import { hostKeyOf } from '../../observed-event';
import { DgaModel } from './dga-model';
import type { DynamicZoneLookup } from './dynamic-zone';
import { defaultDgaModel } from './dga-score';
import { hostEvidence, type HostEvidence, type HostEvidenceExtras } from './host-evidence';
import { candidateOf, nameFactsOf, type CandidateRules } from './dga-candidate';
import { sharedScoreMemo } from './dga-volume-memos';

export const DGA_VOLUME: DetectionDefinition = {
  id: 'dga_volume',
  threat: 'dga_volume',
  title: 'Burst of machine-generated (DGA) domain lookups',
  severity: 4,
  flags: ['perplexing_domain', 'unique'],
  mitreAttack: ['TA0011:T1568.002'],
  analytic: { id: 3, name: 'Statistical' },
  findingType: 'Domain Generation Algorithm',
  keyDescription: 'constant `dga`: one finding per endpoint',
};

/**
 * Per host: the distinct registered domains (or names under a dynamic DNS zone) it looked up within `windowMs`
 * that are (1) in no popularity tier of `establishedTiers` (by default: in no ranking), (2) new to the workspace
 * (first looked up less than `noveltyMs` ago by any of its hosts), (3) not in a provider-assigned cloud/CDN zone
 * and (4) at least `minLabelLength` long. Once `minDistinctDomains` of them are in the window, their combined
 * evidence (host-evidence.ts: how unusual each one's DGA score is for a benign name, how alike their lengths and
 * characters and suffixes are) is compared with `minStrength`, a -log10 p-value against benign browsing. A DGA-infected host
 * tries tens to thousands of candidate names until one resolves; a browsing host's never-seen domains are few at
 * a time, score like benign names and differ from each other.
 */
export interface DgaVolumeOptions {
  windowMs: number;
  minDistinctDomains: number;
  /** -log10 of the combined p-value needed to fire (host-evidence.ts). */
  minStrength: number;
  /** Domains remembered per host (oldest dropped first); must be >= minDistinctDomains. */
  maxDomainsPerHost: number;
  /** Host windows kept; least recently used dropped first. */
  maxHosts: number;
  /** How long after its first lookup in a workspace a candidate domain still counts as never seen. */
  noveltyMs: number;
  /** First sightings of candidate domains remembered (per workspace and domain; LRU). */
  maxRememberedDomains: number;
  minLabelLength: number;
  /**
   * Labels shorter than this count in the length and character tests but their DGA score is not weighed: a
   * label of three or four characters says little by its letters (benign and generated ones score alike), and
   * an uninformative term only dilutes the combined evidence of the others.
   */
  minScoredLength: number;
  /**
   * Popularity tiers whose domains are never weighed: by default all of them. `top100k` holds domains ranked
   * only by DNS query volume (Cloudflare Radar, Cisco Umbrella), which a DGA's domains climb when many infected
   * hosts query them (99 of m0yv's 128 are there). Weighing that tier caught m0yv's runs but cost the sustained
   * bench a fifth of its throughput: every host's window fills with ordinary top-100k sites.
   */
  establishedTiers: readonly PopularityTier[];
  maxEvidence: number;
  /**
   * The dynamic DNS zone a name is under (`mooo.com` for `abc.mooo.com`), from the intel seed's zone list:
   * there the label under the zone is the generated one. Without it, names under zones that are not public
   * suffixes count as the zone itself.
   */
  dynamicZone?: DynamicZoneLookup;
  model?: DgaModel;
  popularity?: PopularitySet;
  /**
   * The benign distribution of the kinship statistic (label-kinship.ts); default: the committed one, when it
   * was built with the model's benign language model. `null`: no kinship term.
   */
  kinshipNull?: KinshipNull | null;
  /** The benign public suffixes and windows of them (tld-null.ts); default: the committed one. `null`: no TLD term. */
  tldNull?: TldNull | null;
  /**
   * Work out every term of the evidence even when it cannot change the decision (for calibration and
   * evaluation, which read `lastEvidence`). Otherwise the kinship and TLD terms are left out of windows that could
   * not reach `minStrength` with them at their strongest.
   */
  exactEvidence?: boolean;
}

/**
 * `minStrength` was set with tools/dga/calibrate-host.ts on simulated browsing of the benign validation slice
 * (never the evaluation's held-out slice): of 4,000 host-days the strongest reached 5.x, the 99.9th percentile
 * 4.05, and 6 leaves a margin for the day-to-day spread (about 1 in 2,000 host-days would reach 4.4). Re-run
 * after the length tests, 4-character labels and dynamic DNS zones were added (hosts also visiting ranked sites
 * of every tier): 99.9th percentile 3.68, none of 4,000 at 5, so 6 stood. With 12,000 host-days
 * (`--hosts 12000`): 99.9th percentile 3.79, 7 at 4 or more (0.58 per 1,000), 1 at 5 (0.08 per 1,000), none at
 * 6. The lowest threshold flagging at most 1 in 2,000 is just above 4.0; 5 keeps a margin of one order of
 * magnitude in p-value and about 12x under the goal of 1 in 1,000. Re-run with 3-character labels, short
 * labels counted by their length and characters only, and the kinship term (12,000 host-days): 99.9th
 * percentile 3.94, 10 at 4 or more, 3 at 5 (0.25 per 1,000), none at 6; the lowest threshold flagging at most
 * 1 in 2,000 is just above 4.3, so 5 stood. Re-run once the kinship term left out windows with fewer than two
 * digit-free labels and stopped counting ties with a quantile as beyond it: 99.9th percentile 3.93, 10 at 4 or
 * more, 3 at 5, none at 6; lowest threshold just above 4.21, so 5 stood. Re-run with the TLD term (29 Nov 2026):
 * 99.9th percentile 3.53, 4 at 4 or more, 1 at 5, none at 6; lowest threshold just above 3.66, so 5 stood (the
 * term's degree of freedom costs the many benign windows whose suffixes say nothing). Again once the TLD table
 * split names as the detector does: 99.9th percentile 3.51, the rest unchanged.
 */
export const DEFAULT_DGA_VOLUME_OPTIONS: DgaVolumeOptions = {
  windowMs: 60_000,
  minDistinctDomains: 6,
  minStrength: 5,
  maxDomainsPerHost: 32,
  maxHosts: 50_000,
  noveltyMs: 60 * 60_000,
  maxRememberedDomains: 200_000,
  minLabelLength: 3,
  minScoredLength: 5,
  establishedTiers: ['top1k', 'top10k', 'top100k'],
  maxEvidence: 10,
};

/** A host's window of candidate domains (keyed by registered domain), each with its DGA score. */
type HostWindow = OccurrenceWindow<number>;

const SCORE_CODEC: OccurrenceDataCodec<number> = {
  width: 1,
  write: (score) => [writeNumber(score)],
  read: ([score], at) => readNumber(score, `${at}.score`),
};

export class DgaVolumeDetector implements Detector {
  readonly definition = DGA_VOLUME;
  readonly types = ['dns'] as const;
  private readonly options: DgaVolumeOptions;
  private readonly model: DgaModel;
  private readonly popularity: PopularitySet;
  private readonly kinshipNull: KinshipNull | undefined;
  private readonly tldNull: TldNull | undefined;
  private readonly hosts: LruMap<string, HostWindow>;
  private readonly firstSeen: LruMap<string, number>;
  /**
   * The evidence weighed by the latest inspect(), for calibration and evaluation: undefined when it weighed none,
   * or (without `exactEvidence`) when the window could not reach `minStrength`.
   */
  lastEvidence: HostEvidence | undefined;
  private readonly candidateRules: CandidateRules;
  /** Hosts repeat their lookups: each label's score is remembered (per thread). */
  private readonly scores: BoundedMemo<number>;

  constructor(options: Partial<DgaVolumeOptions> = {}) {
    this.options = { ...DEFAULT_DGA_VOLUME_OPTIONS, ...options };
    const o = this.options;
    const positiveInt = (name: keyof DgaVolumeOptions): void => {
      const v = o[name];
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new RangeError(`dga_volume: ${name} must be a positive integer, got ${String(v)}`);
    };
    (['minDistinctDomains', 'maxDomainsPerHost', 'maxHosts', 'maxRememberedDomains', 'minLabelLength', 'minScoredLength', 'maxEvidence'] as const).forEach(positiveInt);
    if (o.maxDomainsPerHost < o.minDistinctDomains) throw new RangeError('dga_volume: maxDomainsPerHost must be >= minDistinctDomains');
    if (!(o.windowMs > 0)) throw new RangeError(`dga_volume: windowMs must be positive, got ${o.windowMs}`);
    if (!(o.noveltyMs >= 0)) throw new RangeError(`dga_volume: noveltyMs must be >= 0, got ${o.noveltyMs}`);
    if (!(o.minStrength > 0)) throw new RangeError(`dga_volume: minStrength must be positive, got ${o.minStrength}`);
    this.model = o.model ?? defaultDgaModel();
    this.popularity = o.popularity ?? defaultPopularity();
    this.kinshipNull = kinshipNullFor(this.model, o.kinshipNull);
    this.tldNull = o.tldNull === null ? undefined : (o.tldNull ?? defaultTldNull());
    this.hosts = new LruMap(o.maxHosts);
    this.firstSeen = new LruMap(o.maxRememberedDomains);
    this.candidateRules = { popularity: this.popularity, minLabelLength: o.minLabelLength, establishedTiers: o.establishedTiers };
    this.scores = sharedScoreMemo(this.model);
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    this.lastEvidence = undefined;
    const facts = nameFactsOf(observed, this.popularity, this.options.dynamicZone);
    const r = facts && candidateOf(facts, this.candidateRules);
    if (r === undefined) return undefined;

    const seenKey = `${observed.workspaceId}\u0000${r.domain}`;
    const firstSeenMs = this.firstSeen.get(seenKey);
    if (firstSeenMs === undefined) this.firstSeen.addNew(seenKey, observed.timeMs);
    else if (observed.timeMs < firstSeenMs) this.firstSeen.set(seenKey, observed.timeMs);
    else if (observed.timeMs - firstSeenMs > this.options.noveltyMs) return undefined;

    const hostKey = hostKeyOf(observed);
    let window = this.hosts.get(hostKey);
    if (window === undefined) {
      window = new OccurrenceWindow(observed.timeMs, this.options.windowMs, this.options.maxDomainsPerHost);
      this.hosts.addNew(hostKey, window);
    }
    if (!window.add(r.domain, observed, this.scores.get(r.label))) return undefined;
    if (window.size < this.options.minDistinctDomains) return undefined;
    const evidence = this.evidence(window);
    if (evidence === undefined) return undefined;
    this.lastEvidence = evidence;
    if (evidence.strength < this.options.minStrength) return undefined;
    return this.hit(window, r.domain, observed, evidence);
  }

  /**
   * The combined evidence of a host's window (host-evidence.ts), recomputed only when its domains changed;
   * undefined when it cannot reach `minStrength` (only without `exactEvidence`).
   */
  evidence(window: HostWindow): WindowEvidence | undefined {
    const cached = window.derived;
    if (cached !== undefined && cached.keyVersion === window.keyVersion) return cached.value as WindowEvidence | undefined;
    const evidence = this.computeEvidence(window);
    window.derived = { keyVersion: window.keyVersion, value: evidence };
    return evidence;
  }

  private computeEvidence(window: HostWindow): WindowEvidence | undefined {
    const labels: string[] = [];
    const tails: number[] = [];
    for (const [domain, entry] of window.entries) {
      labels.push(domain.slice(0, domain.indexOf('.')));
      tails.push(this.model.benignTail(entry.data));
    }
    const profile = this.model.file.benignProfile;
    const lengths = { minWeighedLength: this.options.minLabelLength, minScoredLength: this.options.minScoredLength };
    if (this.options.exactEvidence !== true && (this.kinshipNull !== undefined || this.tldNull !== undefined)) {
      // The strength only grows as a term's p-value falls: with the costly terms at their smallest, this bounds
      // the exact evidence. It holds even where a term is then left out: at its smallest p-value a term
      // outweighs the degree of freedom it costs.
      const bound = hostEvidence(labels, tails, profile, lengths, {
        ...(this.kinshipNull !== undefined ? { kinshipP: this.kinshipNull.smallestPValue } : {}),
        ...(this.tldNull !== undefined ? { tldP: TLD_P_FLOOR } : {}),
      });
      if (bound.strength < this.options.minStrength) return undefined;
    }
    const extras: HostEvidenceExtras = {};
    const tld = this.tldNull?.evidence([...window.entries].map(([domain]) => suffixOfRegistrable(domain)));
    // A window size the table does not cover: no test, so no term and no degree of freedom.
    if (tld !== undefined && tld.test !== 'none') extras.tldP = tld.p;
    if (this.kinshipNull !== undefined) {
      const kin = kinshipLabels(labels);
      // Fewer than two labels the test can read: no test, so no term and no degree of freedom.
      if (kin.length >= 2) extras.kinshipP = this.kinshipNull.pValue(kin.length, labelKinship(kin, this.model.benignLanguageModel));
    }
    return { ...hostEvidence(labels, tails, profile, lengths, extras), tld };
  }

  keyedState(): readonly KeyedState[] {
    return [this.hosts, this.firstSeen];
  }

  stateStats(): DetectorStateStats {
    let largestKey = 0;
    for (const window of this.hosts.values()) largestKey = Math.max(largestKey, window.size);
    return { keys: this.hosts.size, maxKeys: this.hosts.maxSize, largestKey, maxEntriesPerKey: this.options.maxDomainsPerHost };
  }

  /** Workspace-wide first sightings held, against their bound. */
  rememberedDomains(): { size: number; max: number } {
    return { size: this.firstSeen.size, max: this.firstSeen.maxSize };
  }

  /**
   * `h`: per host `[latestMs, [domain, age, score, unreported, event, ...]]` (ages relative to latestMs);
   * `f`: first sightings. The label score cache is left out: it is recomputed on demand.
   */
  snapshot(events: SnapshotEventWriter): unknown {
    return {
      h: writeLru(this.hosts, (w) => writeOccurrenceWindow(w, SCORE_CODEC, events)),
      f: writeLru(this.firstSeen, writeNumber),
    };
  }

  restore(state: unknown, events: SnapshotEventReader): void {
    const parts = state === undefined ? {} : readObject(state, DGA_VOLUME.id);
    const hosts = new LruMap<string, HostWindow>(this.hosts.maxSize);
    const options = { windowMs: this.options.windowMs, maxEntries: this.options.maxDomainsPerHost };
    readLru(hosts, parts.h, (value, at) => readOccurrenceWindow(value, at, options, SCORE_CODEC, events), `${DGA_VOLUME.id}.h`);
    readLru(this.firstSeen, parts.f, (value, at) => readNumber(value, at), `${DGA_VOLUME.id}.f`);
    // Both parts decoded before either is installed, so a malformed `f` leaves the windows untouched.
    this.hosts.clear();
    for (const [key, window] of hosts.items()) this.hosts.set(key, window);
  }

  /** Reports every lookup not yet reported: the build-up when it first fires, one lookup afterwards. */
  private hit(window: HostWindow, domain: string, trigger: ObservedEvent, strength: WindowEvidence): DetectionHit {
    const entries = [...window.entries];
    const wisdom: Wisdom = { flags: [...DGA_VOLUME.flags], domain };
    const { weight, pending } = window.takeUnreported(trigger);
    const evidence: EvidenceEvent[] = [
      ...pending.slice(-(this.options.maxEvidence - 1)).map((p) => ({ event: p.event, wisdom: { ...wisdom, domain: p.key } })),
      { event: trigger, wisdom },
    ];
    const distinct = entries.length;
    const meanScore = entries.reduce((s, [, c]) => s + c.data, 0) / distinct;
    const windowSeconds = Math.round(this.options.windowMs / 1000);
    const examples = entries.slice(-3).map(([d]) => d).join(', ');
    const alike = [
      strength.lengthP < 0.01 ? `label lengths within ${strength.lengthSpan + 1}` : '',
      strength.charClassP < 0.01 ? `mostly ${strength.commonCharClass.replace('_', ' and ')}` : '',
      strength.kinshipP < 0.01 ? 'their characters predict each other' : '',
      strength.tldP < 0.01 && strength.tld !== undefined ? describeTldEvidence(strength.tld) : '',
    ].filter((x) => x !== '');
    return {
      detection: DGA_VOLUME,
      key: 'dga',
      weight,
      evidence,
      wisdom,
      observations: [
        `${distinct} distinct unranked, never-seen domains in ${windowSeconds} s`,
        `mean DGA score ${meanScore.toFixed(2)}; combined evidence 1e-${strength.strength.toFixed(1)} against benign browsing (needs 1e-${this.options.minStrength})`,
        ...(alike.length > 0 ? [`alike: ${alike.join(', ')}`] : []),
        `latest ${examples}`,
      ],
      desc:
        `${distinct} distinct generated-looking domains in ${windowSeconds} s (e.g. ${examples}), none of them in the ` +
        `popularity rankings or seen in this network before, mean DGA score ${meanScore.toFixed(2)}` +
        `${alike.length > 0 ? `, ${alike.join(', ')}` : ''}: lookups of a domain generation algorithm searching for its command server`,
    };
  }
}

/** A window's evidence with what the TLD test found (undefined: not tested), which a finding describes. */
type WindowEvidence = HostEvidence & { tld?: TldEvidence };

/** What the TLD term found, for a finding's description. */
function describeTldEvidence(tld: TldEvidence): string {
  if (tld.test === 'few_suffixes') return tld.distinct === 1 ? 'all under one TLD' : `under only ${tld.distinct} TLDs`;
  if (tld.test === 'many_suffixes') return `under ${tld.distinct} different TLDs`;
  return tld.suffix !== undefined ? `many under .${tld.suffix}, which few sites use` : '';
}

/** The kinship null to use with `model`: the given one, else the committed one if it was built for this model's language model. */
function kinshipNullFor(model: DgaModel, given: KinshipNull | null | undefined): KinshipNull | undefined {
  if (given === null) return undefined;
  if (given !== undefined) return given;
  const committed = defaultKinshipNull();
  return committed.fits(model.benignLanguageModel) ? committed : undefined;
}

/** The detector the engine registers. */
export function createDgaDetector(options: Partial<DgaVolumeOptions> = {}): DgaVolumeDetector {
  return new DgaVolumeDetector(options);
}
