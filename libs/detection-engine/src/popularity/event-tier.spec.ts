import { batch, dnsEvent } from '../testing/fixtures';
import { observeEvent } from '../observed-event';
import { registeredDomainTierOf } from './event-tier';
import { PopularitySet } from './popularity';

const T0 = Date.parse('2024-06-10T06:00:00Z');

function observedQuery(query: string, index = 0) {
  const observed = observeEvent(batch(`b-${index}`, 'dns', [dnsEvent(query, T0 + index)]), 0);
  if (observed === undefined) throw new Error('not observed');
  return observed;
}

describe('registeredDomainTierOf', () => {
  const broad = PopularitySet.fromText('# vigil popularity v1\n[top1k]\nexample.com\n[top100k]\nexample.org\n');
  const narrow = PopularitySet.fromText('# vigil popularity v1\n[top10k]\nexample.org\n');

  it("answers each event with its registered domain's tier in the rankings asked about", () => {
    expect(registeredDomainTierOf(observedQuery('www.example.com'), broad)).toBe('top1k');
    expect(registeredDomainTierOf(observedQuery('a.b.example.org'), broad)).toBe('top100k');
    expect(registeredDomainTierOf(observedQuery('unranked-name.net'), broad)).toBeUndefined();
    expect(registeredDomainTierOf(observedQuery('10.0.0.1'), broad)).toBeUndefined();
  });

  it('keeps the tier with the shared split of a name, but per rankings', () => {
    // The same name in later events, asked about in turn of two rankings: the split (and its kept tier) is shared.
    for (let i = 0; i < 3; i++) {
      expect(registeredDomainTierOf(observedQuery('cdn.example.org', i), broad)).toBe('top100k');
      expect(registeredDomainTierOf(observedQuery('cdn.example.org', i), narrow)).toBe('top10k');
      expect(registeredDomainTierOf(observedQuery('www.example.com', i), narrow)).toBeUndefined();
      expect(registeredDomainTierOf(observedQuery('www.example.com', i), broad)).toBe('top1k');
    }
  });
});
