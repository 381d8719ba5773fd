import { plansOf } from '../compile/plans';
import { ruleOf } from '../testing/compile-helpers';
import type { CompiledRule } from '../types';
import { AhoCorasick } from './aho-corasick';
import { EventView } from './event-view';
import { isScreenable, Prefilter } from './prefilter';
import { RuleSet } from './rule-set';

/** Positions of the rules the pre-filter lets through for one HTTP event. */
function screened(rules: CompiledRule[], event: object): number[] {
  const guards = rules.map((r) => {
    const guard = plansOf(r).get('http')?.guard ?? null;
    if (!isScreenable(guard)) throw new Error(`rule ${r.title} is not screenable`);
    return guard;
  });
  const candidates: number[] = [];
  new Prefilter(guards).screen(new EventView('http', event as Record<string, unknown>, undefined), candidates);
  return candidates.sort();
}

const proxy = { category: 'proxy' };

describe('Prefilter', () => {
  it('screens one-character and empty values by whole value, prefix and suffix', () => {
    const rules = [
      ruleOf({ sel: { 'c-useragent': ['M', 'x', '_', 'Opera', 'MSIE', 'sample'] }, condition: 'sel' }, proxy),
      ruleOf({ sel: { 'c-useragent': '' }, condition: 'sel' }, proxy),
      ruleOf({ sel: { 'c-useragent|endswith': '=' }, condition: 'sel' }, proxy),
      ruleOf({ sel: { 'c-useragent|startswith': 'Z' }, condition: 'sel' }, proxy),
    ];
    expect(screened(rules, { url: 'http://a/', userAgent: 'm' })).toEqual([0]);
    expect(screened(rules, { url: 'http://a/', userAgent: '' })).toEqual([1]);
    expect(screened(rules, { url: 'http://a/', userAgent: 'YWJj=' })).toEqual([2]);
    expect(screened(rules, { url: 'http://a/', userAgent: 'zed' })).toEqual([3]);
    expect(screened(rules, { url: 'http://a/', userAgent: 'Mozilla/5.0 x' })).toEqual([]);
  });

  it('requires every clause of a conjunction, each in its own field', () => {
    const rules = [ruleOf({ a: { 'cs-method': 'POST' }, b: { 'c-uri|contains': '/upload.action' }, c: { 'c-useragent|contains': 'python-requests' }, condition: 'a and b and c' }, proxy)];
    expect(screened(rules, { url: 'http://h/upload.action', method: 'POST', userAgent: 'python-requests/2' })).toEqual([0]);
    expect(screened(rules, { url: 'http://h/upload.action', method: 'POST', userAgent: 'curl' })).toEqual([]);
    // the literal in another field does not count
    expect(screened(rules, { url: 'http://h/python-requests', method: 'POST', userAgent: '/upload.action' })).toEqual([]);
  });

  it('screens regular expressions by the literals they require', () => {
    const rules = [ruleOf({ sel: { 'c-uri|re': '\\.(zip|asp)\\?d=[0-9]{1,3}\\.' }, condition: 'sel' }, proxy)];
    expect(isScreenable(plansOf(rules[0]).get('http')?.guard ?? null)).toBe(true);
    expect(screened(rules, { url: 'http://h/a.zip?d=10.1' })).toEqual([0]);
    expect(screened(rules, { url: 'http://h/a.zip?e=10.1' })).toEqual([]);
    expect(RuleSet.compile(rules).match('http', { url: 'http://h/a.zip?d=10.1' })).toHaveLength(1);
  });

  it('never evaluates a rule that depends on a field Vigil lacks and so can never match', () => {
    const rule = ruleOf({ sel: { 'cs-method': 'POST', 'cs-username': 'anonymous' }, condition: 'sel' }, proxy);
    const set = RuleSet.compile([rule]) as unknown as { byType: Map<string, { always: number[] }> };
    expect(set.byType.get('http')?.always).toEqual([]);
    expect(RuleSet.compile([rule]).match('http', { url: 'http://h/', method: 'POST' })).toEqual([]);
  });
});

describe('AhoCorasick (dense table)', () => {
  it('reports exactly the literals a naive search finds, non-ASCII included', () => {
    const literals = ['ab', 'bab', 'abc', 'ca', 'ü€', 'aaa', 'a€b'];
    const ac = new AhoCorasick(literals);
    const alphabet = ['a', 'b', 'c', 'ü', '€', 'z'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 300; n++) {
      const text = Array.from({ length: next() % 12 }, () => alphabet[next() % alphabet.length]).join('');
      const found = new Set<number>();
      ac.scan(text, (id) => found.add(id));
      const expected = literals.flatMap((l, id) => (text.includes(l) ? [id] : []));
      expect([...found].sort()).toEqual(expected);
    }
  });
});
