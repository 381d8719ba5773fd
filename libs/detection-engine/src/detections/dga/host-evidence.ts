import { charClassOf, LABEL_CHAR_CLASSES, type BenignProfile, type LabelCharClass } from './dga-model';

/**
 * How strongly one host's recent never-seen, unranked domains say "domain generation algorithm", as a
 * combined p-value against benign names (Fisher's method). Each domain whose label is long enough for its
 * characters to say something contributes -ln of its benign tail share (the share of benign validation labels
 * scoring at least as high as it does: uniform for benign names, tiny for generated ones). Two terms say how
 * alike the labels are, which a generator's output is and a person's browsing is not: their lengths and their
 * character class (P(at least k of n share a class) under the benign class shares, for the most surprising
 * class); a third, when the caller tests it, says how well the labels predict each other's characters
 * (label-kinship.ts, an empirical p-value rounded up), and a fourth how unlike benign browsing the domains'
 * public suffixes are (tld-null.ts). The length term is the most surprising of three tests
 * under the benign length distribution (given the shortest length weighed): all n lengths within a span that
 * narrow, all at least as long as the shortest (wordlist generators: four or five words to a name), all at
 * most as long as the longest (short random labels). The length and class terms are union bounds over the
 * choices they make, so the statistic stays conservative.
 */
export interface HostEvidence {
  /** Domains weighed. */
  domains: number;
  /** -log10 of the combined p-value: the number compared with the detector's threshold. */
  strength: number;
  /** Sum of the per-domain terms, -ln(benign tail share). */
  scoreEvidence: number;
  /** p-value of the length term (1: no evidence). */
  lengthP: number;
  /** p-value of the shared character class (1: no evidence). */
  charClassP: number;
  /** p-value of how alike the labels' characters are (label-kinship.ts; 1: no evidence or not tested). */
  kinshipP: number;
  /** p-value of how unlike benign browsing the domains' public suffixes are (tld-null.ts; 1: no evidence or not tested). */
  tldP: number;
  lengthSpan: number;
  commonCharClass: LabelCharClass;
}

/** Which labels the terms look at. */
export interface HostEvidenceLengths {
  /** The shortest label the caller weighs (shorter ones never reach it): lengths are judged against benign labels as long. */
  minWeighedLength?: number;
  /** Labels shorter than this add no score term (and no degree of freedom); they still count in the length and class terms. */
  minScoredLength?: number;
}

/** Optional terms the caller tested. */
export interface HostEvidenceExtras {
  /** The kinship test's p-value (label-kinship.ts); omitted: not tested (no term, no degree of freedom). */
  kinshipP?: number;
  /** The TLD test's p-value (tld-null.ts); omitted: not tested (no term, no degree of freedom). */
  tldP?: number;
}

/** ln of the upper regularised gamma Q(k, x) for an integer k >= 1: P(Gamma(k, 1) >= x). */
export function lnGammaUpperTail(k: number, x: number): number {
  if (x <= 0) return 0;
  // Q(k, x) = e^-x * sum_{i<k} x^i / i!, summed in log space from the largest term.
  const terms: number[] = [];
  let lnTerm = 0;
  for (let i = 0; i < k; i++) {
    if (i > 0) lnTerm += Math.log(x) - Math.log(i);
    terms.push(lnTerm);
  }
  const max = Math.max(...terms);
  let sum = 0;
  for (const t of terms) sum += Math.exp(t - max);
  return Math.min(0, -x + max + Math.log(sum));
}

/** ln P(Binomial(n, p) >= k). */
export function lnBinomialUpperTail(n: number, k: number, p: number): number {
  if (k <= 0) return 0;
  if (p <= 0) return -Infinity;
  if (p >= 1) return 0;
  let lnChoose = 0;
  const terms: number[] = [];
  for (let i = 0; i <= n; i++) {
    if (i > 0) lnChoose += Math.log(n - i + 1) - Math.log(i);
    if (i >= k) terms.push(lnChoose + i * Math.log(p) + (n - i) * Math.log(1 - p));
  }
  const max = Math.max(...terms);
  let sum = 0;
  for (const t of terms) sum += Math.exp(t - max);
  return Math.min(0, max + Math.log(sum));
}

/** P(the lengths of n benign labels all lie within some window `span` wide), bounded by the sum over windows. */
function lengthSpanP(shares: readonly number[], n: number, span: number): number {
  let p = 0;
  for (let start = 0; start + span < shares.length; start++) {
    let inside = 0;
    for (let l = start; l <= start + span; l++) inside += shares[l];
    p += Math.pow(Math.max(inside, 1e-6), n);
  }
  return Math.min(1, p);
}

/** P(n benign labels all have lengths in [from, to]) (1-based lengths). */
function lengthRangeP(shares: readonly number[], n: number, from: number, to: number): number {
  let inside = 0;
  for (let l = Math.max(1, from); l <= Math.min(shares.length, to); l++) inside += shares[l - 1];
  return Math.min(1, Math.pow(Math.max(inside, 1e-6), n));
}

/** The benign length shares of labels at least `minLength` long, renormalised (what the detector can see). */
function weighedLengthShares(profile: BenignProfile, minLength: number): number[] {
  const shares = profile.lengths.map((share, i) => (i + 1 >= minLength ? share : 0));
  const total = shares.reduce((a, b) => a + b, 0);
  return total > 0 ? shares.map((share) => share / total) : shares;
}

/** Length terms already worked out, per profile: few (count, shortest, longest, floor) combinations occur. */
const lengthTerms = new WeakMap<BenignProfile, Map<number, number>>();
const MAX_MEMO_LENGTH_TERMS = 20_000;

function memoLengthP(profile: BenignProfile, minWeighedLength: number, n: number, minLength: number, maxLength: number): number {
  let memo = lengthTerms.get(profile);
  if (memo === undefined) lengthTerms.set(profile, (memo = new Map()));
  // Lengths are capped at 64 and counts at the window's size: the key is exact.
  const key = ((minWeighedLength * 128 + n) * 128 + minLength) * 128 + maxLength;
  let p = memo.get(key);
  if (p === undefined) {
    if (memo.size >= MAX_MEMO_LENGTH_TERMS) memo.clear();
    p = lengthP(weighedLengthShares(profile, minWeighedLength), n, minLength, maxLength);
    memo.set(key, p);
  }
  return p;
}

/** The length term: the most surprising of the three length tests, times three for having picked it. */
function lengthP(shares: readonly number[], n: number, minLength: number, maxLength: number): number {
  if (n < 2) return 1;
  const span = lengthSpanP(shares, n, maxLength - minLength);
  const allLong = lengthRangeP(shares, n, minLength, shares.length);
  const allShort = lengthRangeP(shares, n, 1, maxLength);
  return Math.min(1, 3 * Math.min(span, allLong, allShort));
}

/** `labels[i]` with `tailShares[i]`: the benign tail share of its DGA score. */
export function hostEvidence(labels: readonly string[], tailShares: readonly number[], profile: BenignProfile, lengths: HostEvidenceLengths = {}, extras: HostEvidenceExtras = {}): HostEvidence {
  const { minWeighedLength = 1, minScoredLength = 1 } = lengths;
  const n = labels.length;
  let scoreEvidence = 0;
  let scored = 0;
  let minLength = Infinity;
  let maxLength = 0;
  const classCounts = new Map<LabelCharClass, number>();
  for (let i = 0; i < n; i++) {
    if (labels[i].length >= minScoredLength) {
      scoreEvidence -= Math.log(Math.min(1, Math.max(tailShares[i], 1e-12)));
      scored++;
    }
    const length = Math.min(labels[i].length, 64);
    minLength = Math.min(minLength, length);
    maxLength = Math.max(maxLength, length);
    const cls = charClassOf(labels[i]);
    classCounts.set(cls, (classCounts.get(cls) ?? 0) + 1);
  }
  let commonCharClass: LabelCharClass = 'letters';
  for (const c of LABEL_CHAR_CLASSES) if ((classCounts.get(c) ?? 0) > (classCounts.get(commonCharClass) ?? 0)) commonCharClass = c;
  const span = n > 0 ? maxLength - minLength : 0;
  const lengthTerm = n < 2 ? 1 : n < 128 && minWeighedLength < 128 ? memoLengthP(profile, minWeighedLength, n, minLength, maxLength) : lengthP(weighedLengthShares(profile, minWeighedLength), n, minLength, maxLength);
  // The most surprising class count (for its class's benign share), Bonferroni-corrected for picking the class.
  let classTail = 1;
  for (const c of LABEL_CHAR_CLASSES) {
    const count = classCounts.get(c) ?? 0;
    if (count > 0) classTail = Math.min(classTail, Math.exp(lnBinomialUpperTail(n, count, profile.charClasses[c])));
  }
  const charClassP = n >= 2 ? Math.min(1, LABEL_CHAR_CLASSES.length * classTail) : 1;
  const kinshipTested = extras.kinshipP !== undefined && n >= 2;
  const kinshipP = kinshipTested ? Math.min(1, Math.max(extras.kinshipP!, 1e-12)) : 1;
  const tldTested = extras.tldP !== undefined && n >= 2;
  const tldP = tldTested ? Math.min(1, Math.max(extras.tldP!, 1e-12)) : 1;
  const total = scoreEvidence - Math.log(lengthTerm) - Math.log(charClassP) - Math.log(kinshipP) - Math.log(tldP);
  const degrees = scored + 2 + (kinshipTested ? 1 : 0) + (tldTested ? 1 : 0);
  const strength = n === 0 ? 0 : -lnGammaUpperTail(degrees, total) / Math.LN10;
  return { domains: n, strength, scoreEvidence, lengthP: lengthTerm, charClassP, kinshipP, tldP, lengthSpan: span, commonCharClass };
}
