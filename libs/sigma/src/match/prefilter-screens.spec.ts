import { sharedDir } from '@vigil/testing';
import { plansOf } from '../compile/plans';
import { ruleOf } from '../testing/compile-helpers';
import type { CompiledRule } from '../types';
import { EventView } from './event-view';
import { isScreenable, Prefilter } from './prefilter';
import { RuleSet } from './rule-set';
import { compileCorpusRules } from '../corpus-rules';

/**
 * Fields screened through another field or decided at build time: firewall `action` (synonyms)
 * and `blocked` are screened through the raw action, `Initiated` is a constant, and keyword search
 * on ip and dns events reads the raw properties. The pre-filtered rule set must still return
 * exactly what each rule alone returns.
 */
const root = sharedDir('sigma', 'rules-network');
const firewall = { category: 'firewall' };
const dnsSource = { category: 'dns' };

function corpusRules(): CompiledRule[] {
  return compileCorpusRules(root);
}

const targeted: CompiledRule[] = [
  ruleOf({ sel: { action: 'accept' }, condition: 'sel' }, firewall),
  ruleOf({ sel: { action: ['DROP', 'x'] }, condition: 'sel' }, firewall),
  ruleOf({ sel: { 'action|contains': 'ow' }, condition: 'sel' }, firewall),
  ruleOf({ sel: { 'action|startswith': 'rej' }, condition: 'sel' }, firewall),
  ruleOf({ sel: { 'action|endswith': 'ed' }, condition: 'sel' }, firewall),
  ruleOf({ sel: { action: 'teardown' }, condition: 'sel' }, firewall),
  ruleOf({ sel: { action: '' }, condition: 'sel' }, firewall),
  ruleOf({ sel: { blocked: 'true' }, condition: 'sel' }, firewall),
  ruleOf({ sel: { blocked: ['false', 'a', 'b', 'c', 'd'] }, condition: 'sel' }, firewall),
  ruleOf({ sel: { 'blocked|contains': 'ru' }, condition: 'sel' }, firewall),
  ruleOf({ a: { action: 'permit' }, b: { blocked: 'true' }, condition: 'a or b' }, firewall),
  ruleOf({ sel: { 'action|contains': ['forward', 'accept', 'false'], dst_port: 80 }, condition: 'sel' }, firewall),
  ruleOf({ sel: { Initiated: 'true', dst_port: [22, 80, 443, 4444, 8080] }, condition: 'sel' }, firewall),
  ruleOf({ sel: { Initiated: 'true' }, condition: 'sel' }, firewall),
  ruleOf({ sel: { Initiated: 'false', dst_port: 80 }, condition: 'sel' }, firewall),
  ruleOf({ keywords: ['ALLOW'], condition: 'keywords' }, firewall),
  ruleOf({ keywords: ['accept', '10.9.'], condition: 'keywords' }, firewall),
  ruleOf({ keywords: ['7'], condition: 'keywords' }, firewall),
  ruleOf({ keywords: ['.com.'], condition: 'keywords' }, dnsSource),
  ruleOf({ keywords: ['Example'], condition: 'keywords' }, dnsSource),
  ruleOf({ sel: { query: 'example.com' }, condition: 'sel' }, dnsSource),
  ruleOf({ sel: { Initiated: 'true', 'query|endswith': '.com' }, condition: 'sel' }, dnsSource),
];

const ACTIONS: unknown[] = ['allow', 'ALLOW', 'Accepted', 'forward', 'deny', 'DROP', 'Rejected', 'blocked', 'teardown', 'flow', '', 7, null, undefined, ['allow']];

function ipEvents(): object[] {
  const out: object[] = [];
  ACTIONS.forEach((action, i) => {
    for (const destPort of [80, 443, 4444, '8080', 2]) {
      out.push({ srcIP: `10.9.${i}.1`, destIP: '69.42.98.86', destPort, proto: i % 2 ? 'TCP' : 'udp', app: 'Dns', action });
    }
  });
  return out;
}

function dnsEvents(): object[] {
  return ['example.com', 'EXAMPLE.COM.', 'www.example.com.', 'ngrok.io', 'x.ngrok-free.app', 'İ.example.com', '', 'a.com.'].map((query) => ({ query, qtype: 'A' }));
}

describe('Pre-filter screens through other fields', () => {
  it('returns what each rule alone returns, for the corpus and targeted rules, on ip and dns events', () => {
    const rules = [...corpusRules(), ...targeted];
    const set = RuleSet.compile(rules);
    let fired = 0;
    for (const [type, events] of [['ip', ipEvents()], ['dns', dnsEvents()]] as const) {
      for (const event of events) {
        const expected = rules.filter((r) => r.matches(type, event)).map((r) => r.id);
        const got = set.match(type, event).map((r) => r.id);
        expect([type, event, got]).toEqual([type, event, expected]);
        fired += got.length;
      }
    }
    expect(fired).toBeGreaterThan(100);
  });

  it('screens action spellings and blocked through the raw action, and decides Initiated at build time', () => {
    const rules = [
      ruleOf({ sel: { action: 'accept' }, condition: 'sel' }, firewall),
      ruleOf({ sel: { blocked: 'true' }, condition: 'sel' }, firewall),
      ruleOf({ sel: { Initiated: 'true' }, condition: 'sel' }, firewall),
      ruleOf({ sel: { Initiated: 'false', dst_port: 80 }, condition: 'sel' }, firewall),
    ];
    const guards = rules.map((r) => {
      const guard = plansOf(r).get('ip')?.guard ?? null;
      if (!isScreenable(guard)) throw new Error(`rule ${r.title} is not screenable`);
      return guard;
    });
    const prefilter = new Prefilter(guards);
    const screened = (event: object) => {
      const candidates: number[] = [];
      prefilter.screen(new EventView('ip', event as Record<string, unknown>, undefined), candidates);
      return candidates.sort();
    };
    expect(screened({ action: 'Permit', destPort: 80 })).toEqual([0, 2]);
    expect(screened({ action: 'DENIED', destPort: 80 })).toEqual([1, 2]);
    expect(screened({ action: 'teardown', destPort: 80 })).toEqual([2]);
    expect(screened({ destPort: 443 })).toEqual([2]);
  });
});
