import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedDir } from '@vigil/testing';
import { ruleOf } from '../testing/compile-helpers';
import type { CompiledRule } from '../types';
import { AhoCorasick } from './aho-corasick';
import { RuleSet } from './rule-set';
import { compileCorpusRules } from '../corpus-rules';

/**
 * The pre-filter scans values as sent (ASCII case folded in the automaton), places hits in URL
 * slices by position, finds whole values, prefixes and suffixes at the ends, and remembers what
 * repeated values satisfy. These events aim at each of those paths: upper case, user info and
 * ports, fragments, implied paths, extensions, non-ASCII text that moves positions when
 * lower-cased, empty parts, and values repeated across events.
 */
const root = sharedDir('sigma', 'rules-network');

function corpusRules(): CompiledRule[] {
  return compileCorpusRules(root);
}

/** Quoted values of the web rules (proxy and webserver), the literals the pre-filter indexes. */
function webLiterals(): string[] {
  const out = new Set<string>();
  for (const dir of ['proxy_generic', 'webserver_generic']) {
    const full = path.join(root, 'rules', 'web', dir);
    if (!fs.existsSync(full)) continue;
    for (const file of fs.readdirSync(full)) {
      for (const m of fs.readFileSync(path.join(full, file), 'utf8').matchAll(/- '([^'*]{2,})'/g)) out.add(m[1]);
    }
  }
  return [...out];
}

function httpEvents(literals: string[]): object[] {
  const events: object[] = [];
  literals.forEach((lit, i) => {
    const up = lit.toUpperCase();
    events.push(
      { url: `HTTP://User:Pw@H${i}.Example.COM:8080/A${up}?Q=${up}#${lit}`, userAgent: up, method: i % 2 ? 'post' : 'GET', referrer: `https://r.example/${lit}` },
      { url: `https://${lit}.example.com?x=1`, userAgent: lit, method: 'POST' },
      { url: `http://h/${lit}`, userAgent: `x ${lit}` },
      { url: `/${lit}.EXE`, userAgent: `${lit}=` },
      { url: `http://h/İ${lit}?ü=${lit}İ`, userAgent: `İ${up}` },
      { url: `http://h/p.${lit}`, userAgent: `Mozilla/5.0 ${lit}`, referrer: '' },
      { url: lit, userAgent: '', method: lit },
    );
  });
  for (const url of ['', '?', '#', 'http://', 'http://:80/', 'http://h?', 'http://h/a.', 'http://h/.x', 'http://h/a.b/c', 'ftp://h/a.zip?d=1.2.']) {
    events.push({ url, userAgent: 'M', method: 'GET' });
  }
  return events;
}

describe('Pre-filter positions, case folding and memo', () => {
  const rules = corpusRules();
  const set = RuleSet.compile(rules);
  // Every fourth literal keeps the file well under its time budget and still covers each rule family.
  const literals = webLiterals().filter((_, i) => i % 4 === 0);

  it('returns exactly what evaluating each rule alone returns on events aimed at every screening path', () => {
    expect(literals.length).toBeGreaterThan(50);
    let fired = 0;
    // Twice: the second round replays values the memo already holds.
    for (let round = 0; round < 2; round++) {
      for (const event of httpEvents(literals)) {
        const expected = rules.filter((r) => r.matches('http', event)).map((r) => r.id);
        const got = set.match('http', event).map((r) => r.id);
        expect([event, got]).toEqual([event, expected]);
        fired += got.length;
      }
    }
    expect(fired).toBeGreaterThan(50);
  });

  it('screens whole values, prefixes and suffixes of URL slices and of values shared by several fields', () => {
    const proxy = { category: 'proxy' };
    const byHost = ruleOf({ sel: { 'cs-host': ['evil.example', 'x.y', 'a.b', 'c.d', 'e.f'] }, condition: 'sel' }, proxy);
    const byExtension = ruleOf({ sel: { 'c-uri-extension': 'z' }, condition: 'sel' }, proxy);
    const byQueryEnd = ruleOf({ sel: { 'c-uri-query|endswith': '=' }, condition: 'sel' }, proxy);
    const byPathStart = ruleOf({ sel: { 'url.query|startswith': 'B' }, condition: 'sel' }, proxy);
    const byKeyword = ruleOf({ keywords: ['sqlmap'], condition: 'keywords' }, proxy);
    const rs = RuleSet.compile([byHost, byExtension, byQueryEnd, byPathStart, byKeyword]);
    const titles = (url: string, userAgent = 'curl') => rs.match('http', { url, userAgent }).map((r) => [byHost, byExtension, byQueryEnd, byPathStart, byKeyword].indexOf(r));
    expect(titles('http://u@EVIL.example:443/q/a.Z?b=')).toEqual([0, 1, 2, 3]);
    expect(titles('http://evil.example.com/q.zz?c=1')).toEqual([]);
    expect(titles('http://notevil.example/x')).toEqual([]);
    expect(titles('http://h/x', 'SQLMap/1.0')).toEqual([4]);
    expect(titles('http://h/x?sqlmap')).toEqual([4]);
  });

  it('finds quiet literals only at the ends of a text', () => {
    const ac = new AhoCorasick(['ab', 'b', 'abc'], { foldAsciiCase: true, quiet: new Set([1, 2]) });
    const loud: number[] = [];
    const end = ac.scanAsciiFrom('xABcab', 0, 6, 0, (id) => loud.push(id));
    expect(loud).toEqual([0, 0]);
    const suffixes: number[] = [];
    ac.suffixesAt(end, 5, (id) => suffixes.push(id));
    expect(suffixes).toEqual([1]);
    const prefixes: number[] = [];
    ac.walkPrefixes('ABCD', 0, 4, (id) => prefixes.push(id));
    expect(prefixes).toEqual([2]);
    expect(ac.scanAsciiFrom('aé', 0, 2, 0, () => undefined)).toBe(-2);
  });
});
