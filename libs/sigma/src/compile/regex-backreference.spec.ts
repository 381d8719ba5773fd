import { loadSigmaDocuments } from '../load/yaml-loader';
import { compileRule } from './rule-compiler';

/** A DNS rule whose `query|re` value is written exactly as `yamlValue` (quotes and escapes included). */
const compileQueryRegex = (yamlValue: string) => {
  const text = `title: t\nid: 00000000-0000-4000-8000-000000000001\nlogsource:\n  category: dns\ndetection:\n  sel:\n    query|re: ${yamlValue}\n  condition: sel\n`;
  const loaded = loadSigmaDocuments(text, 'r.yml');
  if (loaded.errors.length) return { ok: false as const, error: loaded.errors[0].error };
  return compileRule(loaded.documents[0]);
};

describe('re: backreferences are refused, however the YAML spells them', () => {
  it.each([
    ["'(a*)\\1$'", 'single-quoted (backslashes are literal)'],
    ['(a*)\\1$', 'plain'],
    ['"(a*)\\\\1$"', 'double-quoted with the backslash escaped'],
  ])('%s (%s) compiles to the regex (a*)\\1$ and is refused', (yamlValue) => {
    expect(compileQueryRegex(yamlValue)).toEqual({
      ok: false,
      error: `detection 'sel': 'query|re': regular expression "(a*)\\\\1$" does not compile in the linear-time (RE2) engine: backreferences such as \\1 are not supported`,
    });
  });

  it('an unescaped \\1 in double quotes is a YAML error, not a regex', () => {
    expect(compileQueryRegex('"(a*)\\1$"')).toEqual({ ok: false, error: expect.stringMatching(/^YAML error at line 7, column \d+: Invalid escape sequence \\1/) });
  });

  it("'(a*)\\\\1$' in single quotes is the regex (a*)\\\\1$: a literal backslash and 1, accepted and matched literally", () => {
    const compiled = compileQueryRegex("'(a*)\\\\1$'");
    if (!compiled.ok) throw new Error(compiled.error);
    const matches = (query: string) => compiled.rule.matches('dns', { ts: 't', srcIP: '10.0.0.1', query });
    expect(matches('aa\\1')).toBe(true);
    // A backreference would match 'aaaa' ((a*) = 'aa' twice); RE2 never runs one.
    expect(matches('aaaa')).toBe(false);
  });
});
