import { DomainSuffixFilter } from './domain-suffix-filter';
import { IndicatorIndexBuilder } from './indicator-index';

const zonesOf = (name: string): string[] => {
  const zones = [name];
  for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) zones.push(name.slice(dot + 1));
  return zones;
};

describe('DomainSuffixFilter', () => {
  const held = Array.from({ length: 20_000 }, (_, i) => `d${(Math.imul(i + 1, 2654435761) >>> 0).toString(36)}.${['com', 'net', 'co.uk', 'example'][i % 4]}`);
  const filter = new DomainSuffixFilter(held, held.length);

  it('offers every zone of a name that it holds, the name itself last, and rules out most others', () => {
    const starts: number[] = [];
    let offered = 0;
    let zones = 0;
    for (const [i, domain] of held.entries()) {
      const name = i % 3 === 0 ? domain : `www${i}.a-b.${domain}`;
      const count = filter.candidateZones(name, starts);
      const candidates = starts.slice(0, count).map((start) => name.slice(start));
      expect(candidates).toContain(domain);
      expect([...candidates].reverse()).toEqual(zonesOf(name).filter((zone) => candidates.includes(zone)));
      if (candidates.length > 0) expect(candidates[candidates.length - 1] === name).toBe(starts[count - 1] === 0);
      offered += count - 1;
      zones += zonesOf(name).length - 1;
    }
    expect(offered / zones).toBeLessThan(0.1);
  });

  it('agrees with the table: an index finds a held zone above any name, most specific first', () => {
    const builder = new IndicatorIndexBuilder(100);
    for (const value of ['evil.example', 'a.b.evil.example', 'example']) builder.add({ kind: 'domain', value, label: 'c2:Test', source: 'test' });
    const index = builder.build();
    expect(index.matchDomain('x.a.b.evil.example.').map((m) => m.indicator)).toEqual(['a.b.evil.example', 'evil.example', 'example']);
    expect(index.matchDomain('notevil.example').map((m) => m.indicator)).toEqual(['example']);
    expect(index.matchDomain('..evil.example').map((m) => m.indicator)).toEqual(['evil.example', 'example']);
    expect(index.matchDomain('evil.example.com')).toEqual([]);
  });
});
