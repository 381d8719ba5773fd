import { PopularitySet } from '../../popularity/popularity';
import { judgeCandidate, sharedCandidateMemo } from './dga-volume-memos';
import { dynamicDnsZoneOf, type DynamicZoneLookup } from './dynamic-zone';

const RANKED = PopularitySet.fromText('# vigil popularity v1\n[top1k]\nexample-brand.com\n[top100k]\nclimbed.biz\n');
const ALL_TIERS = ['top1k', 'top10k', 'top100k'] as const;

describe('dga_volume memos', () => {
  it('judges a name by its registrable label, its rank, its zone and its length', () => {
    const rules = { popularity: RANKED, minLabelLength: 3, establishedTiers: ALL_TIERS };
    expect(judgeCandidate('www.qwzkxbvt.com', rules)).toEqual({ domain: 'qwzkxbvt.com', label: 'qwzkxbvt' });
    expect(judgeCandidate('cdn.example-brand.com', rules)).toBeUndefined();
    expect(judgeCandidate('climbed.biz', rules)).toBeUndefined();
    expect(judgeCandidate('climbed.biz', { ...rules, establishedTiers: ['top1k', 'top10k'] })).toEqual({ domain: 'climbed.biz', label: 'climbed' });
    expect(judgeCandidate('ab.com', rules)).toBeUndefined();
    expect(judgeCandidate('printer.corp', rules)).toBeUndefined();
  });

  it('gives every detector judging alike the same memo, and others their own', () => {
    const zones: DynamicZoneLookup = () => undefined;
    const rules = { popularity: RANKED, dynamicZone: zones, minLabelLength: 3, establishedTiers: ALL_TIERS };
    const memo = sharedCandidateMemo(rules);
    expect(sharedCandidateMemo({ ...rules, establishedTiers: ['top100k', 'top10k', 'top1k'] })).toBe(memo);
    expect(sharedCandidateMemo({ ...rules, minLabelLength: 4 })).not.toBe(memo);
    expect(sharedCandidateMemo({ ...rules, dynamicZone: () => undefined })).not.toBe(memo);
    expect(sharedCandidateMemo({ ...rules, popularity: PopularitySet.fromText('# vigil popularity v1\n') })).not.toBe(memo);
  });

  it('hands every engine of a thread the same zone lookup for one intel store, so they share a memo', () => {
    const intel = { matchDomain: () => [] };
    expect(dynamicDnsZoneOf(intel)).toBe(dynamicDnsZoneOf(intel));
    expect(dynamicDnsZoneOf({ matchDomain: () => [] })).not.toBe(dynamicDnsZoneOf(intel));
  });

  it('forgets its verdicts when the dynamic DNS zones change', () => {
    let generation = 1;
    let zone: string | undefined;
    const zones: DynamicZoneLookup = Object.assign((hostname: string) => (zone !== undefined && hostname.endsWith(`.${zone}`) ? zone : undefined), { generation: () => generation });
    const memo = sharedCandidateMemo({ popularity: RANKED, dynamicZone: zones, minLabelLength: 3, establishedTiers: ALL_TIERS });
    expect(memo.get('kqzvwpx.dyn-provider.com')).toEqual({ domain: 'dyn-provider.com', label: 'dyn-provider' });
    zone = 'dyn-provider.com';
    expect(memo.get('kqzvwpx.dyn-provider.com')).toEqual({ domain: 'dyn-provider.com', label: 'dyn-provider' });
    generation++;
    expect(memo.get('kqzvwpx.dyn-provider.com')).toEqual({ domain: 'kqzvwpx.dyn-provider.com', label: 'kqzvwpx' });
  });
});
