import type { BenignProfile } from './dga-model';
import { hostEvidence, lnGammaUpperTail } from './host-evidence';

/** Benign lengths spread over 4-20 characters, mostly letters. */
const profile: BenignProfile = {
  scores: [0.1, 0.5, 0.9],
  tail: [1, 0.1, 0.01],
  lengths: Array.from({ length: 64 }, (_, i) => (i + 1 >= 4 && i + 1 <= 20 ? 1 / 17 : 0)),
  charClasses: { letters: 0.85, letters_digits: 0.08, digits: 0.01, hyphenated: 0.06 },
  labels: 10_000,
};

describe('lnGammaUpperTail', () => {
  it('matches closed forms: Q(1, x) = e^-x, Q(2, x) = (1 + x) e^-x', () => {
    expect(lnGammaUpperTail(1, 3)).toBeCloseTo(-3, 10);
    expect(lnGammaUpperTail(2, 5)).toBeCloseTo(Math.log(6) - 5, 10);
    expect(lnGammaUpperTail(10, 0)).toBe(0);
    // The mean of Gamma(k, 1) is k: about half of the mass lies above it.
    expect(Math.exp(lnGammaUpperTail(30, 30))).toBeGreaterThan(0.4);
    expect(Math.exp(lnGammaUpperTail(30, 30))).toBeLessThan(0.6);
  });
});

describe('hostEvidence', () => {
  it('is weak for benign-looking names of varied lengths and strong for alike, unusual ones', () => {
    const benign = hostEvidence(['shop', 'weatherstation', 'kitchenideas', 'mybank-online', 'photos4u', 'garden'], [0.6, 0.3, 0.8, 0.5, 0.2, 0.9], profile);
    expect(benign.strength).toBeLessThan(2);
    const labels = Array.from({ length: 10 }, (_, i) => `qx${i}kzvbnw`);
    const dga = hostEvidence(labels, labels.map(() => 0.001), profile);
    expect(dga.strength).toBeGreaterThan(20);
    expect(dga.lengthSpan).toBe(0);
    expect(dga.lengthP).toBeLessThan(1e-10);
    expect(dga.commonCharClass).toBe('letters_digits');
    expect(dga.charClassP).toBeLessThan(1e-9);
  });

  it('grows with the number of domains at the same per-domain evidence', () => {
    const labels = (n: number) => Array.from({ length: n }, (_, i) => 'abcdefghijklmnopqrst'.slice(0, 6 + (i % 12)));
    const strength = (n: number) => hostEvidence(labels(n), new Array<number>(n).fill(0.05), profile).strength;
    expect(strength(15)).toBeGreaterThan(strength(10));
    expect(strength(10)).toBeGreaterThan(strength(6));
  });

  it('finds labels that are all long (or all short) alike even when their lengths vary', () => {
    const long = Array.from({ length: 10 }, (_, i) => 'thehistoryformertrialcoasts'.slice(0, 19 + (i % 2)));
    const varied = Array.from({ length: 10 }, (_, i) => 'thehistoryformertrialcoasts'.slice(0, 5 + i));
    expect(hostEvidence(long, new Array<number>(10).fill(0.5), profile).lengthP).toBeLessThan(1e-6);
    expect(hostEvidence(varied, new Array<number>(10).fill(0.5), profile).lengthP).toBeGreaterThan(0.01);
    // Judged against benign labels at least as long as the caller weighs: among those, long ones are common.
    const judged = (minWeighedLength: number) => hostEvidence(long, new Array<number>(10).fill(0.5), profile, { minWeighedLength }).lengthP;
    expect(judged(15)).toBeGreaterThan(judged(1));
  });

  it('leaves the scores of labels under minScoredLength out of the sum and its degrees of freedom', () => {
    const labels = ['ab1', 'c2de', 'xyz9', 'q7r', 'zz3k', 'm4n', 'w0w', 'k8j', 'p1p', 'r5t'];
    const uninformative = new Array<number>(10).fill(0.9);
    const all = hostEvidence(labels, uninformative, profile, { minWeighedLength: 3 });
    const structural = hostEvidence(labels, uninformative, profile, { minWeighedLength: 3, minScoredLength: 5 });
    expect(structural.scoreEvidence).toBe(0);
    expect(structural.lengthP).toBe(all.lengthP);
    expect(structural.charClassP).toBe(all.charClassP);
    expect(structural.strength).toBeGreaterThan(all.strength + 2);
    // A long label still adds its score term.
    const withLong = hostEvidence([...labels, 'qzxkvbnwpt'], [...uninformative, 1e-4], profile, { minWeighedLength: 3, minScoredLength: 5 });
    expect(withLong.scoreEvidence).toBeCloseTo(-Math.log(1e-4), 10);
  });

  it('adds a tested kinship p-value as one more term and degree of freedom, and nothing when untested', () => {
    const labels = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    const tails = [0.2, 0.1, 0.3, 0.05, 0.2, 0.1];
    const untested = hostEvidence(labels, tails, profile);
    expect(untested.kinshipP).toBe(1);
    expect(hostEvidence(labels, tails, profile, {}, { kinshipP: 1 }).strength).toBeLessThan(untested.strength);
    const kin = hostEvidence(labels, tails, profile, {}, { kinshipP: 1e-4 });
    expect(kin.kinshipP).toBe(1e-4);
    expect(kin.strength).toBeGreaterThan(untested.strength + 2);
  });

  it('adds a tested TLD p-value as one more term and degree of freedom, beside the kinship one', () => {
    const labels = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    const tails = [0.2, 0.1, 0.3, 0.05, 0.2, 0.1];
    const untested = hostEvidence(labels, tails, profile, {}, { kinshipP: 0.01 });
    expect(untested.tldP).toBe(1);
    expect(hostEvidence(labels, tails, profile, {}, { kinshipP: 0.01, tldP: 1 }).strength).toBeLessThan(untested.strength);
    const tld = hostEvidence(labels, tails, profile, {}, { kinshipP: 0.01, tldP: 1e-3 });
    expect(tld).toMatchObject({ tldP: 1e-3, kinshipP: 0.01 });
    expect(tld.strength).toBeGreaterThan(untested.strength + 1);
  });

  it('weighs nothing when there is nothing', () => {
    expect(hostEvidence([], [], profile)).toMatchObject({ domains: 0, strength: 0, lengthP: 1, charClassP: 1 });
  });
});
