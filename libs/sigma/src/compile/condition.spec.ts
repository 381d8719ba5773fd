import { errorOf, ruleOf } from '../testing/compile-helpers';

const ev = (userAgent: string, method = 'GET') => ({ ts: 't', url: 'http://h/p', userAgent, method });
const detection = {
  sel_a: { 'c-useragent|contains': 'alpha' },
  sel_b: { 'c-useragent|contains': 'beta' },
  filter_get: { 'cs-method': 'GET' },
  _hidden: { 'c-useragent|contains': 'zzz' },
};
const run = (condition: string, event: object) => ruleOf({ ...detection, condition }).matches('http', event);

describe('condition grammar', () => {
  it('and, or, not with precedence (not > and > or)', () => {
    expect(run('sel_a and sel_b', ev('alpha beta'))).toBe(true);
    expect(run('sel_a and sel_b', ev('alpha'))).toBe(false);
    expect(run('sel_a or sel_b', ev('beta'))).toBe(true);
    expect(run('sel_a or sel_b', ev('gamma'))).toBe(false);
    expect(run('sel_a and not filter_get', ev('alpha', 'POST'))).toBe(true);
    expect(run('sel_a and not filter_get', ev('alpha', 'GET'))).toBe(false);
    // or binds weaker than and: alpha-only GET matches the left conjunct
    expect(run('sel_a and filter_get or sel_b', ev('alpha', 'GET'))).toBe(true);
    expect(run('sel_a and filter_get or sel_b', ev('alpha', 'POST'))).toBe(false);
  });
  it('parentheses', () => {
    expect(run('sel_a and (filter_get or sel_b)', ev('alpha', 'POST'))).toBe(false);
    expect(run('sel_a and (filter_get or sel_b)', ev('alpha beta', 'POST'))).toBe(true);
    expect(run('not (sel_a or sel_b)', ev('gamma'))).toBe(true);
    expect(run('not (sel_a or sel_b)', ev('beta'))).toBe(false);
  });
  it('1 of / all of with wildcard patterns', () => {
    expect(run('1 of sel_*', ev('beta'))).toBe(true);
    expect(run('1 of sel_*', ev('gamma'))).toBe(false);
    expect(run('all of sel_*', ev('alpha beta'))).toBe(true);
    expect(run('all of sel_*', ev('alpha'))).toBe(false);
    expect(run('1 of sel_a', ev('alpha'))).toBe(true);
  });
  it('them excludes identifiers starting with _', () => {
    expect(run('all of them', ev('alpha beta', 'GET'))).toBe(true);
    expect(run('all of them', ev('alpha beta', 'POST'))).toBe(false);
    expect(run('1 of them', ev('zzz', 'POST'))).toBe(false);
  });
  it('names unknown identifiers, empty patterns and syntax errors', () => {
    expect(errorOf({ ...detection, condition: 'sel_c' })).toMatch(/unknown identifier 'sel_c' \(defined: sel_a, sel_b, filter_get, _hidden\)/);
    expect(errorOf({ ...detection, condition: '1 of nothing_*' })).toMatch(/'1 of nothing_\*' matches no identifier/);
    expect(errorOf({ ...detection, condition: 'sel_a and (sel_b' })).toMatch(/expected "\)", found the end/);
    expect(errorOf({ ...detection, condition: 'sel_a sel_b' })).toMatch(/expected "and", "or" or the end, found 'sel_b' at column 7/);
    expect(errorOf({ ...detection, condition: '2 of sel_*' })).toMatch(/'2 of' is not Sigma/);
  });
});

describe('search identifiers', () => {
  it('a list of maps is OR of maps', () => {
    const rule = ruleOf({ sel: [{ 'cs-method': 'PUT' }, { 'c-useragent': 'x' }], condition: 'sel' });
    expect(rule.matches('http', ev('x', 'GET'))).toBe(true);
    expect(rule.matches('http', ev('y', 'PUT'))).toBe(true);
    expect(rule.matches('http', ev('y', 'GET'))).toBe(false);
  });
  it('keyword lists search the event text fields', () => {
    const rule = ruleOf({ keywords: ['${jndi:ldap:', 'sqlmap'], condition: 'keywords' }, { category: 'webserver' });
    expect(rule.matches('http', { ts: 't', url: 'http://h/?x=${jndi:ldap://e.com/a}' })).toBe(true);
    expect(rule.matches('http', { ts: 't', url: 'http://h/', userAgent: 'SQLMap/1.5' })).toBe(true);
    expect(rule.matches('http', { ts: 't', url: 'http://h/' })).toBe(false);
  });
  it('rejects empty identifiers and nested maps', () => {
    expect(errorOf({ sel: {}, condition: 'sel' })).toMatch(/detection 'sel': empty map/);
    expect(errorOf({ sel: { a: { b: 1 } }, condition: 'sel' })).toMatch(/a map is not a value/);
  });
});

describe('fields Vigil does not carry', () => {
  it('never make a negated selection match everything', () => {
    const rule = ruleOf({ z: { Z: 0 }, sel: { 'c-uri|contains': '.' }, condition: 'not z and sel' });
    expect(rule.matches('http', { ts: 't', url: 'http://a.b/' })).toBe(false);
    const either = ruleOf({ z: { Z: 0 }, sel: { 'c-uri|contains': 'evil' }, condition: 'z or sel' });
    expect(either.matches('http', { ts: 't', url: 'http://evil/' })).toBe(true);
    expect(either.matches('http', { ts: 't', url: 'http://good/' })).toBe(false);
  });
});
