import { observeEvent } from '../../observed-event';
import { PopularitySet } from '../../popularity/popularity';
import { batch, benignNames, dnsEvent, shuffled, T0 } from '../../testing/fixtures';
import { candidateOf, judgeCandidate, nameFactsOf } from './dga-candidate';
import type { DynamicZoneLookup } from './dynamic-zone';

const RANKED = PopularitySet.fromText('# vigil popularity v1\n[top1k]\nexample-brand.com\n[top100k]\nclimbed.biz\n');
const ALL_TIERS = ['top1k', 'top10k', 'top100k'] as const;

describe('dga_volume candidates', () => {
  it('judges a name by its registrable label, its rank, its zone and its length', () => {
    const rules = { popularity: RANKED, minLabelLength: 3, establishedTiers: ALL_TIERS };
    expect(judgeCandidate('www.qwzkxbvt.com', rules)).toEqual({ domain: 'qwzkxbvt.com', label: 'qwzkxbvt' });
    expect(judgeCandidate('cdn.example-brand.com', rules)).toBeUndefined();
    expect(judgeCandidate('climbed.biz', rules)).toBeUndefined();
    expect(judgeCandidate('climbed.biz', { ...rules, establishedTiers: ['top1k', 'top10k'] })).toEqual({ domain: 'climbed.biz', label: 'climbed' });
    expect(judgeCandidate('ab.com', rules)).toBeUndefined();
    expect(judgeCandidate('printer.corp', rules)).toBeUndefined();
  });

  it('judges the name below a dynamic DNS zone, even when the provider is ranked, and follows the zones as they change', () => {
    let zone: string | undefined;
    const zones: DynamicZoneLookup = (hostname) => (zone !== undefined && hostname.endsWith(`.${zone}`) ? zone : undefined);
    const rules = { popularity: RANKED, dynamicZone: zones, minLabelLength: 3, establishedTiers: ALL_TIERS };
    expect(judgeCandidate('kqzvwpx.example-brand.com', rules)).toBeUndefined();
    zone = 'example-brand.com';
    expect(judgeCandidate('kqzvwpx.example-brand.com', rules)).toEqual({ domain: 'kqzvwpx.example-brand.com', label: 'kqzvwpx' });
    expect(judgeCandidate('a.b.kqzvwpx.example-brand.com', rules)).toEqual({ domain: 'kqzvwpx.example-brand.com', label: 'kqzvwpx' });
  });

  it('gives from the facts the engine shares per event the verdict of judging each name on its own', () => {
    const names = shuffled(benignNames('tranco10k.txt'), 3).slice(0, 2000);
    const ranked = names.slice(0, 1000);
    const rankings = PopularitySet.fromText(`# vigil popularity v1\n[top1k]\n${ranked.slice(0, 300).join('\n')}\n[top100k]\n${ranked.slice(300).join('\n')}\n`);
    const zoneOf = new Set(names.slice(900, 1100));
    const zones: DynamicZoneLookup = (hostname) => [...zoneOf].find((z) => hostname.endsWith(`.${z}`));
    const odd = ['abc.WWW.Example.COM.', '192.0.2.7', 'localhost', 'co.uk', '3utilities.com', 'a:b.example.com', 'x_y.com', '-bad.com', 'ab.com', 'printer.corp', '1.0.0.10.in-addr.arpa', 'xn--80ak6aa92e.com', 'qwzkxbvt.top'];
    const queries = [...names, ...names.slice(850, 1150).map((n, i) => `q${i}zkvw.${n}`), ...names.slice(0, 200).map((n) => `www.${n}`), ...odd];
    let candidates = 0;
    for (const tiers of [ALL_TIERS, ['top1k'] as const]) {
      const rules = { popularity: rankings, minLabelLength: 3, establishedTiers: tiers };
      for (const [i, query] of queries.entries()) {
        const facts = nameFactsOf(observeEvent(batch(`c${i}`, 'dns', [dnsEvent(query, T0)]), 0)!, rankings, zones);
        if (facts === undefined) continue;
        const fromEvent = candidateOf(facts, rules);
        expect(fromEvent).toEqual(judgeCandidate(query, { ...rules, dynamicZone: zones }));
        if (fromEvent !== undefined) candidates++;
      }
    }
    expect(candidates).toBeGreaterThan(1000);
  });
});
