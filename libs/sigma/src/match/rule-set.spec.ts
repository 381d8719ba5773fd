import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedDir } from '@vigil/testing';
import { compileFilter } from '../compile/filter-compiler';
import { ruleOf } from '../testing/compile-helpers';
import type { CompiledRule } from '../types';
import { AhoCorasick } from './aho-corasick';
import { RuleSet } from './rule-set';
import { compileCorpusRules } from '../corpus-rules';

describe('AhoCorasick', () => {
  it('finds every literal occurrence, overlapping ones included', () => {
    const ac = new AhoCorasick(['he', 'she', 'his', 'hers', 'x']);
    const found: number[] = [];
    ac.scan('ushers', (id) => found.push(id));
    expect(found.sort()).toEqual([0, 1, 3]);
    const none: number[] = [];
    ac.scan('abc', (id) => none.push(id));
    expect(none).toEqual([]);
  });
});

function corpusRules(): CompiledRule[] {
  return compileCorpusRules(sharedDir('sigma', 'rules-network'));
}

/** Events built from the corpus's own literals, so many rules fire, plus noise. */
function events(rules: CompiledRule[]): Array<{ type: 'dns' | 'http' | 'ip'; event: object }> {
  const out: Array<{ type: 'dns' | 'http' | 'ip'; event: object }> = [];
  const root = sharedDir('sigma', 'rules-network');
  const literals = new Set<string>();
  for (const file of fs.readdirSync(path.join(root, 'rules', 'web', 'proxy_generic'))) {
    for (const m of fs.readFileSync(path.join(root, 'rules', 'web', 'proxy_generic', file), 'utf8').matchAll(/- '([^'*]{3,})'/g)) literals.add(m[1]);
  }
  let i = 0;
  for (const lit of literals) {
    i++;
    out.push({ type: 'http', event: { ts: 't', url: `http://h${i}.example.com/a${lit}?q=${i}`, userAgent: lit, method: i % 2 ? 'GET' : 'POST', status: 200 } });
    out.push({ type: 'dns', event: { ts: 't', query: `${lit.replace(/[^a-z0-9.]/gi, '')}.onion`.toLowerCase(), qtype: 'TXT' } });
  }
  // Values the whole-value, prefix/suffix and regular-expression screens decide on.
  for (const userAgent of ['', 'M', 'x', '_', 'Opera', 'abc=', 'user-agent: x', 'Mozilla/5.0', 'Mozilla/3.0 (compatible; Acrobat 5.0)']) {
    out.push({ type: 'http', event: { ts: 't', url: 'http://files.example.com/get/a.exe', userAgent, method: 'GET', status: 200 } });
  }
  out.push({ type: 'http', event: { ts: 't', url: 'https://ipfs.io/ipfs/x.html?u=a.b@c.de', userAgent: 'curl/8' } });
  out.push({ type: 'http', event: { ts: 't', url: 'https://abc-x1y.host-name-s-account.workers.dev/p', userAgent: 'curl/8' } });
  out.push({ type: 'http', event: { ts: 't', url: 'http://74.50.94.156/MSHTML_C7/zip_k.asp?d=99.99.99.99', method: 'GET', userAgent: 'x' } });
  out.push({ type: 'ip', event: { ts: 't', destIP: '10.1.1.1', destPort: 21, action: 'allow' } });
  out.push({ type: 'http', event: { ts: 't', url: 'http://x/', userAgent: '' } });
  expect(rules.length).toBeGreaterThan(100);
  return out;
}

describe('RuleSet', () => {
  it('returns exactly what evaluating every rule on its own returns (the pre-filter loses nothing)', () => {
    const rules = corpusRules();
    const set = RuleSet.compile(rules);
    let fired = 0;
    for (const { type, event } of events(rules)) {
      const expected = rules.filter((r) => r.matches(type, event)).map((r) => r.id);
      const got = set.match(type, event).map((r) => r.id);
      expect(got).toEqual(expected);
      fired += got.length;
    }
    expect(fired).toBeGreaterThan(50);
  });

  it('applies meta filters to the rules they name when the logsource agrees', () => {
    const rule = ruleOf({ sel: { 'cs-host|endswith': '.example.com' }, condition: 'sel' }, { category: 'proxy' }, {}, { id: '6f3e2987-db24-4c78-a860-b4f4095a7095' });
    const other = ruleOf({ sel: { 'cs-host|endswith': '.example.com' }, condition: 'sel' }, { category: 'proxy' }, {}, { id: 'df0841c0-9846-4e9f-ad8a-7df91571771b' });
    const filter = compileFilter({
      title: 'not the CDN',
      logsource: { category: 'proxy' },
      filter: { rules: ['6f3e2987-db24-4c78-a860-b4f4095a7095'], selection: { 'cs-host|startswith': 'cdn.' }, condition: 'selection' },
    });
    if (!filter.ok) throw new Error(filter.error);
    const set = RuleSet.compile([rule, other], [filter.filter]);
    expect(set.match('http', { ts: 't', url: 'http://cdn.example.com/' }).map((r) => r.id)).toEqual(['df0841c0-9846-4e9f-ad8a-7df91571771b']);
    expect(set.match('http', { ts: 't', url: 'http://www.example.com/' })).toHaveLength(2);
    const webserverFilter = compileFilter({
      title: 'other logsource',
      logsource: { category: 'webserver' },
      filter: { rules: ['6f3e2987-db24-4c78-a860-b4f4095a7095'], selection: { 'cs-host|startswith': 'cdn.' }, condition: 'selection' },
    });
    if (!webserverFilter.ok) throw new Error(webserverFilter.error);
    expect(RuleSet.compile([rule], [webserverFilter.filter]).match('http', { ts: 't', url: 'http://cdn.example.com/' })).toHaveLength(1);
  });

  it('ignores bad input instead of throwing', () => {
    const set = RuleSet.compile([ruleOf({ sel: { 'c-uri|contains': 'x' }, condition: 'sel' })]);
    expect(set.match('http', { ts: 't', url: 42 })).toEqual([]);
    expect(set.match('nope' as 'http', { url: 'x' })).toEqual([]);
    expect(set.match('http', null as unknown as object)).toEqual([]);
  });
});
