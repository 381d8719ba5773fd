import { RE2JS } from 're2js';
import { regexLiteralClauses } from './regex-literals';

const clauses = (re: string, insensitive = false) => regexLiteralClauses(re, insensitive, 2);

describe('regexLiteralClauses', () => {
  it('takes the required literal runs of a sequence, each a clause of its own', () => {
    expect(clauses('\\.(zip|asp)\\?d=[0-9]{1,3}\\.')).toEqual([['zip', 'asp'], ['?d=']]);
    expect(clauses('/api/v[12]/Users/')).toEqual([['/api/v'], ['/users/']]);
  });

  it('unions the best clause of each branch of an alternation', () => {
    expect(clauses('-[a-z0-9]{3}\\.[a-z0-9-]{3,}-s-account\\.workers\\.dev|\\.up\\.railway\\.app')).toEqual([['-s-account.workers.dev', '.up.railway.app']]);
    // one branch without a usable literal: nothing can be required
    expect(clauses('abc|[0-9]+')).toEqual([]);
  });

  it('drops optional atoms and ends runs at repeated ones', () => {
    expect(clauses('abcd?ef')).toEqual([['abc'], ['ef']]);
    expect(clauses('abc+de')).toEqual([['abc'], ['de']]);
    expect(clauses('ab(cd)*ef')).toEqual([['ab'], ['ef']]);
    expect(clauses('ab(cd)+ef')).toEqual([['ab'], ['cd'], ['ef']]);
    expect(clauses('ab{0,2}x')).toEqual([]);
  });

  it('under case-insensitivity does not rely on s or k (RE2 folds ſ and the Kelvin sign onto them)', () => {
    expect(clauses('(?i)ipfs\\.io/.+@')).toEqual([['ipf'], ['.io/']]);
    expect(clauses('WORKS', true)).toEqual([['wor']]);
    expect(clauses('WORKS')).toEqual([['works']]);
  });

  it('gives up rather than guess on constructs it does not model', () => {
    expect(clauses('\\Q.*\\Eabc')).toEqual([]);
    expect(clauses('[[:alpha:]]abc')).toEqual([]);
    expect(clauses('\\101bc')).toEqual([]);
    expect(clauses('(abc')).toEqual([]);
  });

  it('skips classes, escapes with braces and flags without inventing literals', () => {
    expect(clauses('[]x]abc\\p{Greek}def\\x{41}gh(?s:ij)')).toEqual([['abc'], ['def'], ['gh'], ['ij']]);
  });

  it('is sound: every string the expression matches contains a literal of every clause', () => {
    const cases: Array<[string, string[]]> = [
      ['\\.(zip|asp|htm)\\?d=[0-9]{1,3}\\.[0-9]{1,3}', ['/x/a.zip?d=1.22', 'q.htm?d=999.1']],
      ['(?i)(ipfs\\.io/|ipfs\\.io\\s).+\\..+@.+\\.[a-z]+', ['IPFS.IO/a.b@c.de', 'ipfs.io x.y@z.com']],
      ['(?i)unc\\\\\\\\[a-z]+\\\\', ['UNC\\\\host\\']],
    ];
    for (const [re, samples] of cases) {
      const compiled = RE2JS.compile(re);
      const required = clauses(re);
      expect(required.length).toBeGreaterThan(0);
      for (const s of samples) {
        expect(compiled.matcher(s).find()).toBe(true);
        for (const clause of required) expect(clause.some((l) => s.toLowerCase().includes(l))).toBe(true);
      }
    }
  });
});
