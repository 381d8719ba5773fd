import type { Wisdom } from '@vigil/contracts';
import { registeredDomain } from '../../domain';
import { defaultPopularity, type PopularitySet } from '../../popularity/popularity';
import type { DetectionDefinition, DetectionHit, Detector, ObservedEvent } from '../detection';
import { BrandIndex, type ImposterTechnique } from './brand-index';

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

/**
 * Fires on DNS queries and HTTP requests to an unranked registered domain whose registrable label imitates
 * the label of one of the most popular domains (the brand list: the `top1k` popularity tier). Stateless.
 */
export class ImposterDomainDetector implements Detector {
  readonly definition = IMPOSTER_DOMAIN;
  readonly types = ['dns', 'http'] as const;
  private readonly brands: BrandIndex;
  private readonly brandDomains = new Map<string, string>();

  constructor(private readonly popularity: PopularitySet = defaultPopularity()) {
    for (const domain of popularity.domainsIn('top1k')) {
      const label = domain.split('.')[0];
      if (!this.brandDomains.has(label)) this.brandDomains.set(label, domain);
    }
    this.brands = new BrandIndex(this.brandDomains.keys());
  }

  inspect(observed: ObservedEvent): DetectionHit | undefined {
    if (observed.hostname === undefined) return undefined;
    const domain = registeredDomain(observed.hostname);
    if (domain === undefined || this.popularity.tier(domain) !== undefined) return undefined;
    const match = this.brands.match(domain.split('.')[0]);
    if (match === undefined) return undefined;
    const brandDomain = this.brandDomains.get(match.brand) ?? match.brand;
    const wisdom: Wisdom = { flags: [...IMPOSTER_DOMAIN.flags], labels: [`imposter:${match.technique}`], domain };
    return {
      detection: IMPOSTER_DOMAIN,
      key: domain,
      weight: 1,
      evidence: [{ event: observed, wisdom }],
      wisdom,
      observations: [`imitates ${brandDomain}`, `technique ${match.technique}`],
      desc: `${observed.hostname}: the unranked domain ${domain} ${TECHNIQUE_WORDS[match.technique]} the popular ${brandDomain}`,
    };
  }
}
