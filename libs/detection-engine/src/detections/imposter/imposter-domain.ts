import type { KeyedState } from '../../state/state-budget';
import type { Wisdom } from '@vigil/contracts';
import type { SplitHostname } from '../../domain';
import { hostKeyOf, hostnameSplitOf } from '../../observed-event';
import { SUSPICIOUS_TLDS } from '../../enrichment/domain-context';
import { defaultPopularity, type PopularitySet } from '../../popularity/popularity';
import { registeredDomainTierOf } from '../../popularity/event-tier';
import { LruMap } from '../../state/lru-map';
import { readLru, writeLru } from '../../state/lru-snapshot';
import { readArray, readNumber, readString } from '../../state/snapshot';
import type { DetectionDefinition, DetectionHit, Detector, DetectorStateStats, ObservedEvent } from '../detection';
import { BrandIndex, LURE_WORDS, type ImposterTechnique } from './brand-index';
import { HostBrands } from './host-brands';
import { DEFAULT_IMPOSTER_WEIGHTS, scoreImposter, type ImposterWeights } from './imposter-evidence';

export const IMPOSTER_DOMAIN: DetectionDefinition = {
  id: 'imposter_domain',
  threat: 'imposter_domain',
  title: 'Look-alike of a popular domain contacted',
  severity: 3,
  flags: ['imposter'],
  mitreAttack: ['TA0001:T1566', 'TA0042:T1583.001'],
  analytic: { id: 1, name: 'Rule' },
  findingType: 'Imposter Domain',
  keyDescription: 'imposter registered domain',
};

const TECHNIQUE_WORDS: Record<ImposterTechnique, string> = {
  homoglyph: 'swaps look-alike characters of',
  bitsquat: 'differs by one flipped bit from',
  typosquat: 'is one typo away from',
  combosquat: 'combines a word with',
};

/** Brand labels that name infrastructure, not a site people recognise and trust: nobody imitates them to a user. */
const INFRASTRUCTURE_LABEL = /cdn|static|edge|akamai|cloudfront|dns|^a-|^e-|^api|-api|^img/;

export interface ImposterOptions {
  popularity: PopularitySet;
  weights: ImposterWeights;
  /** How long a host's look-up of a brand counts as context (ms). */
  brandMemoryMs: number;
  /** Hosts whose brand look-ups are remembered (least recently active dropped first). */
  maxHosts: number;
  /** Brands remembered per host (least recently looked up dropped first). */
  maxBrandsPerHost: number;
}

/**
 * Fires on DNS queries and HTTP requests to an unranked registered domain whose registrable label imitates the
 * label of one of the most popular domains (the `top1k` popularity tier, infrastructure names aside) and whose
 * evidence (see imposter-evidence) reaches the threshold. Keeps, per host, the brands it looked up recently:
 * a host that just used the real brand and now reaches a look-alike is more telling.
 */
export class ImposterDomainDetector implements Detector {
  readonly definition = IMPOSTER_DOMAIN;
  readonly types = ['dns', 'http'] as const;
  private readonly options: ImposterOptions;
  private readonly brands: BrandIndex;
  private readonly brandDomains = new Map<string, string>();
  /** Registered domain of a brand → its label, for recording look-ups of the real brand. */
  private readonly brandOfDomain = new Map<string, string>();
  /** (workspace, endpoint) → the brand labels it looked up lately. */
  private readonly seenBrands: LruMap<string, HostBrands>;

  constructor(options: Partial<ImposterOptions> | PopularitySet = {}) {
    const given = options instanceof Object && 'tier' in options ? { popularity: options as PopularitySet } : (options as Partial<ImposterOptions>);
    this.options = {
      popularity: given.popularity ?? defaultPopularity(),
      weights: given.weights ?? DEFAULT_IMPOSTER_WEIGHTS,
      brandMemoryMs: given.brandMemoryMs ?? 30 * 60_000,
      maxHosts: given.maxHosts ?? 100_000,
      maxBrandsPerHost: given.maxBrandsPerHost ?? 16,
    };
    for (const domain of this.options.popularity.domainsIn('top1k')) {
      const label = domain.split('.')[0];
      if (INFRASTRUCTURE_LABEL.test(label)) continue;
      // The brand's .com domain names it best (google.com rather than google.ca).
      if (!this.brandDomains.has(label) || domain === `${label}.com`) this.brandDomains.set(label, domain);
      this.brandOfDomain.set(domain, label);
    }
    this.brands = new BrandIndex(this.brandDomains.keys());
    this.seenBrands = new LruMap(this.options.maxHosts);
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    if (observed.hostname === undefined) return undefined;
    const split = hostnameSplitOf(observed);
    if (split === undefined) return undefined;
    const domain = split.registeredDomain;
    const brandLabel = this.brandOf(split);
    if (brandLabel !== null) {
      this.rememberBrand(hostKeyOf(observed), brandLabel, observed.timeMs);
      return undefined;
    }
    if (registeredDomainTierOf(observed, this.options.popularity) !== undefined) return undefined;
    const match = this.brands.match(domain.slice(0, domain.indexOf('.')));
    if (match === undefined) return undefined;
    const brandDomain = this.brandDomains.get(match.brand) ?? match.brand;
    const seenAt = this.seenBrands.get(hostKeyOf(observed))?.timeOf(match.brand);
    const brandSeenByHost = seenAt !== undefined && observed.timeMs - seenAt <= this.options.brandMemoryMs && observed.timeMs >= seenAt;
    const { score, reasons } = scoreImposter(
      { match, domain, brandDomain, subdomain: split.subdomain, brandSeenByHost, lureWords: LURE_WORDS, abusedTlds: SUSPICIOUS_TLDS },
      this.options.weights,
    );
    if (score < this.options.weights.threshold) return undefined;
    const wisdom: Wisdom = { flags: [...IMPOSTER_DOMAIN.flags], labels: [`imposter:${match.technique}`], domain };
    return {
      detection: IMPOSTER_DOMAIN,
      key: domain,
      weight: 1,
      evidence: [{ event: observed, wisdom }],
      wisdom,
      observations: [`imitates ${brandDomain}`, `technique ${match.technique}`, `evidence ${score}: ${reasons.join(', ')}`],
      desc: `${observed.hostname}: the unranked domain ${domain} ${TECHNIQUE_WORDS[match.technique]} the popular ${brandDomain} (${reasons.join(', ')})`,
    };
  }

  /**
   * The brand whose own domain the name is under, or null; kept with the split for the name's next events. The
   * brands follow from the rankings alone, so the answer is kept for them: every partition's detector shares it.
   */
  private brandOf(split: Readonly<SplitHostname>): string | null {
    const memo = split.memo;
    if (memo.brandOwner !== this.options.popularity) {
      memo.brand = this.brandOfDomain.get(split.registeredDomain) ?? null;
      memo.brandOwner = this.options.popularity;
    }
    return memo.brand;
  }

  private rememberBrand(hostKey: string, brand: string, timeMs: number): void {
    let brands = this.seenBrands.get(hostKey);
    if (brands === undefined) {
      brands = new HostBrands();
      this.seenBrands.addNew(hostKey, brands);
    }
    brands.remember(brand, timeMs, this.options.maxBrandsPerHost);
  }

  keyedState(): readonly KeyedState[] {
    return [this.seenBrands];
  }

  stateStats(): DetectorStateStats {
    let largestKey = 0;
    for (const brands of this.seenBrands.values()) largestKey = Math.max(largestKey, brands.size);
    return { keys: this.seenBrands.size, maxKeys: this.seenBrands.maxSize, largestKey, maxEntriesPerKey: this.options.maxBrandsPerHost };
  }

  /** Per host `[brand, timeMs, brand, timeMs, ...]`, least recently looked up first. */
  snapshot(): unknown {
    return writeLru(this.seenBrands, (host) => host.brands.flatMap((brand, i) => [brand, host.times[i]]));
  }

  restore(state: unknown): void {
    readLru(
      this.seenBrands,
      state,
      (value, at) => {
        const flat = readArray(value, at);
        const host = new HostBrands();
        for (let i = Math.max(0, flat.length - 2 * this.options.maxBrandsPerHost); i + 1 < flat.length; i += 2) {
          host.remember(readString(flat[i], `${at}[${i}]`), readNumber(flat[i + 1], `${at}[${i + 1}]`), this.options.maxBrandsPerHost);
        }
        return host;
      },
      IMPOSTER_DOMAIN.id,
    );
  }
}

