import { readFileSync } from 'node:fs';
import { DATA_DIR, seededRandom, tunnelQueries } from '../../testing/fixtures';
import { splitHostname } from '../../domain';
import {
  assessSubdomain,
  DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS,
  isRareDataRecordType,
  expectedRandomEntropy,
  shannonEntropy,
  subdomainFeatures,
} from './subdomain-features';

function randomString(alphabet: string, length: number, random: () => number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

function subdomainOf(query: string): string {
  const name = query.replace(/\.$/, '');
  const split = splitHostname(name);
  if (split === undefined) throw new Error(`no registered domain in ${query}`);
  return name.slice(0, name.length - split.registeredDomain.length - 1);
}

describe('shannonEntropy', () => {
  it('is 0 for one repeated symbol and log2(n) for n distinct symbols', () => {
    expect(shannonEntropy('')).toBe(0);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBeCloseTo(2, 10);
    expect(shannonEntropy('0123456789abcdef')).toBeCloseTo(4, 10);
  });
});

describe('expectedRandomEntropy', () => {
  it('agrees with the mean entropy of simulated random strings', () => {
    const random = seededRandom(7);
    const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
    for (const n of [16, 40, 120]) {
      let sum = 0;
      for (let i = 0; i < 400; i++) sum += shannonEntropy(randomString(alphabet, n, random));
      expect(expectedRandomEntropy(n, 32)).toBeCloseTo(sum / 400, 1);
    }
  });
  it('grows with length towards log2(k)', () => {
    expect(expectedRandomEntropy(16, 16)).toBeLessThan(expectedRandomEntropy(64, 16));
    expect(expectedRandomEntropy(1000, 16)).toBeLessThan(4);
    expect(expectedRandomEntropy(1000, 16)).toBeGreaterThan(3.95);
  });
});

describe('subdomainFeatures', () => {
  it('tells encodings apart', () => {
    expect(subdomainFeatures('q+Z8/Hn82BA').charset).toBe('base64');
    expect(subdomainFeatures('aXBlbWQxNjBAb3BlbnNzaC5jb20saG1hYy1zaGEx').charset).toBe('base64');
    expect(subdomainFeatures('0eia6aKRFKKYMؼz7n8c').charset).toBe('binary');
    expect(subdomainFeatures('5aa25954e40ffb18984989b59487dfe0').charset).toBe('hex');
    expect(subdomainFeatures('mfrggzdfmztwq2lknnwg23tpobyxe').charset).toBe('base32');
    expect(subdomainFeatures('onedscolprdwus19').charset).toBe('alnum');
    expect(subdomainFeatures('www.images').charset).toBe('letters');
  });
});

describe('assessSubdomain', () => {
  it('flags random encoded payloads of every common encoding', () => {
    const random = seededRandom(11);
    const encodings = {
      hex: '0123456789abcdef',
      base32: 'abcdefghijklmnopqrstuvwxyz234567',
      base64: 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/',
    };
    for (const [name, alphabet] of Object.entries(encodings)) {
      for (let i = 0; i < 50; i++) {
        const sub = `${randomString(alphabet, 40, random)}.${randomString(alphabet, 20, random)}`;
        expect({ name, sub, random: assessSubdomain(sub).randomLooking }).toEqual({ name, sub, random: true });
      }
    }
  });

  it.each([
    'www',
    'prod-dynamite-prod-05-us-signaler-pa.clients6',
    'settings-prod-eus2-2-tagged.eastus2.cloudapp',
    'emailsignatures365-outlookaddin',
    'c.1.60878.tunnel',
    'ab12345.tunnel',
    'r123.tunnel',
    'web2024-prod',
    '0.0.0.0.0.0.0.0.0.0.0.0.0.0.2.3.0.0.2.0.8.4.0.6.8.4.1.0.0.2',
    'rbfqd09EN9EN9EN9EN9EN9EN9EN.9EN9EN9EN9EN9EN9EN9EN',
  ])('does not flag %s', (sub) => {
    expect(assessSubdomain(sub).randomLooking).toBe(false);
  });

  it('flags the data-carrying queries of every tunnel tool in the shared data', () => {
    const byZone = new Map<string, { total: number; flagged: number }>();
    for (const query of tunnelQueries('validate.csv')) {
      const sub = subdomainOf(query);
      // Polls and handshakes are short; only names that can carry data are expected to be flagged.
      if ([...sub.replace(/\./g, '')].length < 48) continue;
      const zone = splitHostname(query.replace(/\.$/, ''))!.registeredDomain;
      const stats = byZone.get(zone) ?? { total: 0, flagged: 0 };
      stats.total++;
      if (assessSubdomain(sub).randomLooking) stats.flagged++;
      byZone.set(zone, stats);
    }
    expect([...byZone.keys()].sort()).toEqual(['example.org', 'hidemyself.org', 'tuns.org']);
    for (const [zone, { total, flagged }] of byZone) {
      expect({ zone, recall: flagged / total >= 0.95 }).toEqual({ zone, recall: true });
    }
  });
});

describe('short tunnel labels', () => {
  it.each(['q+Z8AnwaBA', 'q+aABIAcBA', 'q+Z/CH8gBA.x', 'aGVsbG8=wor'])('flags %s: base64-only characters in a host name', (sub) => {
    const assessment = assessSubdomain(sub);
    expect(assessment).toMatchObject({ randomLooking: true, signal: 'non-host-characters' });
    expect(assessment.payload.charset).toBe('base64');
  });

  it.each(['q+Z8', '0/25.1', '12/34/5678'])('does not flag %s: too short or without letters', (sub) => {
    expect(assessSubdomain(sub).randomLooking).toBe(false);
  });

  it('flags the counter label of a poll, and lets the threshold switch it off', () => {
    expect(assessSubdomain('r15989.tunnel')).toMatchObject({ randomLooking: true, signal: 'counter-label', payload: { length: 6, charset: 'alnum' } });
    expect(assessSubdomain('R1598.tunnel').signal).toBe('counter-label');
    expect(assessSubdomain('r15989.tunnel', { ...DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS, minCounterDigits: Infinity }).randomLooking).toBe(false);
    expect(assessSubdomain('r15989.tunnel', { ...DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS, minCounterDigits: 6 }).randomLooking).toBe(false);
  });

  it('reports an encoded payload before a short-label signal', () => {
    const sub = 'mfrggzdfmztwq2lknnwg23tpobyxe4dfmzrw63lqn5zxg.r15989';
    expect(assessSubdomain(sub).signal).toBe('encoded-payload');
  });
});

describe('per-query decision on the shared tunnel data', () => {
  function perQuery(file: 'train.csv' | 'validate.csv'): { tpr: number; fpr: number } {
    const rows = readFileSync(`${DATA_DIR}/tunnel/${file}`, 'utf8').trim().split('\n').slice(1);
    let tp = 0, pos = 0, fp = 0, neg = 0;
    for (const row of rows) {
      const comma = row.indexOf(',');
      const name = row.slice(comma + 1).replace(/\.$/, '');
      const split = splitHostname(name);
      const flagged = split !== undefined && split.subdomain !== '' && assessSubdomain(subdomainOf(name)).randomLooking;
      if (row.startsWith('1,')) { pos++; if (flagged) tp++; } else { neg++; if (flagged) fp++; }
    }
    return { tpr: tp / pos, fpr: fp / neg };
  }

  it.each(['train.csv', 'validate.csv'] as const)('meets TPR >= 92 %% at FPR <= 0.8 %% on %s', (file) => {
    const { tpr, fpr } = perQuery(file);
    expect(tpr).toBeGreaterThanOrEqual(0.92);
    expect(fpr).toBeLessThanOrEqual(0.008);
  });
});

describe('letters-only payloads in data record queries', () => {
  const randomLetters = 'qwhzkxjvbnmtrplsdfgcyaeuoiqwhzkxjvbn'.slice(0, 30);

  it('count as random-looking for TXT/NULL queries, not for address queries', () => {
    expect(assessSubdomain(randomLetters, undefined, 'TXT').randomLooking).toBe(true);
    expect(assessSubdomain(randomLetters, undefined, 'null').randomLooking).toBe(true);
    expect(assessSubdomain(randomLetters, undefined, 'A').randomLooking).toBe(false);
    expect(assessSubdomain(randomLetters).randomLooking).toBe(false);
  });

  it('still leave long words alone', () => {
    expect(assessSubdomain('internationalizationservices', undefined, 'TXT').randomLooking).toBe(false);
    expect(assessSubdomain('selector1._domainkey', undefined, 'TXT').randomLooking).toBe(false);
  });
});

describe('rarely queried data record types', () => {
  it('are NULL, KEY and the private-use range (iodine PRIVATE), by name or number; not TXT, A or reserved types', () => {
    for (const qtype of ['NULL', 'null', 'TYPE10', 'KEY', 'TYPE25', 'PRIVATE', 'TYPE65399', 'TYPE65280', 'TYPE65534']) expect({ qtype, rare: isRareDataRecordType(qtype) }).toEqual({ qtype, rare: true });
    for (const qtype of [undefined, 'A', 'AAAA', 'TXT', 'ANY', 'HTTPS', 'TYPE65535', 'TYPE65279', 'TYPE6539']) expect({ qtype, rare: isRareDataRecordType(qtype) }).toEqual({ qtype, rare: false });
  });

  it('make a short letters-and-digits label a short token, which it is not in an address query', () => {
    expect(assessSubdomain('pa2lzaiq', DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS, 'PRIVATE')).toMatchObject({ randomLooking: false, signal: 'short-token' });
    expect(assessSubdomain('pa2lzaiq', DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS, 'A').signal).toBeUndefined();
    expect(assessSubdomain('www', DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS, 'NULL').signal).toBeUndefined();
    expect(assessSubdomain('pa2lzaiq', { ...DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS, minRareTypeLabelLength: Infinity }, 'PRIVATE').signal).toBeUndefined();
  });
});
