/**
 * Lexical features of the part of a query name left of its registered domain, used to tell encoded
 * payloads (base32/base64/hex, raw bytes) from the names people and CDNs choose.
 */
export type PayloadCharset = 'binary' | 'base64' | 'hex' | 'base32' | 'alnum' | 'letters';

export interface SubdomainFeatures {
  /** Characters excluding dots. */
  length: number;
  longestLabel: number;
  /** Shannon entropy (bits per character) of the case-folded payload without dots, hyphens and underscores. */
  entropy: number;
  /**
   * `entropy` relative to a uniformly random string of the same length over the payload's alphabet
   * (16 symbols for hex, 32 otherwise): about 1 for encoded data, lower for words and repeated patterns.
   */
  randomness: number;
  charset: PayloadCharset;
  /** Share of vowels (aeiouy) among letters. */
  vowelRatio: number;
}

const LDH = /^[a-z0-9_-]*$/i;
const BASE64_CHARS = /^[a-z0-9_+/=-]*$/i;
const HEX = /^[0-9a-f]+$/;
const BASE32 = /^[a-z2-7]+$/;

export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const n = [...text].length;
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

const expectedEntropyCache = new Map<string, number>();

/**
 * Expected Shannon entropy (bits/char) of `n` characters drawn uniformly from `k` symbols: each symbol's
 * count is Binomial(n, 1/k), so E[H] = -k * sum_c P(c) (c/n) log2(c/n). Short strings cannot reach
 * log2(k), which is why one fixed entropy threshold misjudges short and long names alike.
 */
export function expectedRandomEntropy(n: number, k: number): number {
  if (n <= 1) return 0;
  const key = `${n}:${k}`;
  const cached = expectedEntropyCache.get(key);
  if (cached !== undefined) return cached;
  const p = 1 / k;
  let pmf = Math.pow(1 - p, n);
  let sum = 0;
  for (let c = 0; c < n; c++) {
    pmf = (pmf * (n - c) * p) / ((c + 1) * (1 - p));
    const share = (c + 1) / n;
    sum += pmf * share * Math.log2(share);
  }
  const value = -k * sum;
  expectedEntropyCache.set(key, value);
  return value;
}

function hasMixedCase(label: string): boolean {
  let upper = 0;
  let lower = 0;
  for (const ch of label) {
    if (ch >= 'A' && ch <= 'Z') upper++;
    else if (ch >= 'a' && ch <= 'z') lower++;
  }
  return upper >= 3 && lower >= 3;
}

function classifyCharset(labels: string[], joined: string, folded: string): PayloadCharset {
  // '+', '/' and '=' are base64; anything else outside letters-digits-hyphen (non-ASCII, control bytes) is raw.
  if (!LDH.test(joined)) return BASE64_CHARS.test(joined) ? 'base64' : 'binary';
  // DNS is case-insensitive, so mixed case inside one long label comes from an encoder, not a person.
  if (labels.some((label) => label.length >= 16 && hasMixedCase(label))) return 'base64';
  const hasDigit = /[0-9]/.test(folded);
  const hasLetter = /[a-z]/.test(folded);
  if (HEX.test(folded) && hasDigit && hasLetter) return 'hex';
  if (BASE32.test(folded) && /[2-7]/.test(folded) && hasLetter) return 'base32';
  return hasDigit ? 'alnum' : 'letters';
}

/** `subdomain` keeps its original case (mixed case is itself a signal). */
export function subdomainFeatures(subdomain: string): SubdomainFeatures {
  const labels = subdomain.split('.').filter((l) => l.length > 0);
  const joined = labels.join('');
  const folded = joined.toLowerCase().replace(/[-_]/g, '');
  const charset = classifyCharset(labels, joined, folded);
  let letters = 0;
  let vowels = 0;
  for (const ch of folded) {
    if (ch >= 'a' && ch <= 'z') {
      letters++;
      if ('aeiouy'.includes(ch)) vowels++;
    }
  }
  const entropy = shannonEntropy(folded);
  const n = [...folded].length;
  const expected = expectedRandomEntropy(n, charset === 'hex' ? 16 : 32);
  return {
    length: [...joined].length,
    longestLabel: labels.reduce((m, l) => Math.max(m, [...l].length), 0),
    entropy,
    randomness: expected === 0 ? 0 : entropy / expected,
    charset,
    vowelRatio: letters === 0 ? 0 : vowels / letters,
  };
}

/** Thresholds of {@link assessSubdomain}; see the DNS tunnel detection for how they were chosen. */
export interface RandomSubdomainThresholds {
  /** Tokens (split at '.', '-', '_') shorter than this are words, counters or region codes, not payload. */
  minTokenLength: number;
  /** Total characters of long tokens needed before a name can carry a payload. */
  minPayloadLength: number;
  /** Minimum {@link SubdomainFeatures.randomness} of the long tokens. */
  minRandomness: number;
}

export const DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS: RandomSubdomainThresholds = {
  minTokenLength: 12,
  minPayloadLength: 24,
  minRandomness: 0.9,
};

export interface SubdomainAssessment {
  randomLooking: boolean;
  /** Features of the long tokens (the candidate payload). */
  payload: SubdomainFeatures;
}

/**
 * Judges whether a subdomain (original case) looks like an encoded payload: long tokens that together
 * are long enough, close to random entropy, and not made of letters only (random base32/hex strings of
 * 24+ characters almost always contain digits; words do not), unless they hold raw bytes or mixed case.
 */
export function assessSubdomain(
  subdomain: string,
  thresholds: RandomSubdomainThresholds = DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS,
): SubdomainAssessment {
  const longTokens = subdomain.split(/[.\-_]/).filter((t) => [...t].length >= thresholds.minTokenLength);
  const payload = subdomainFeatures(longTokens.join('.'));
  const randomLooking =
    payload.length >= thresholds.minPayloadLength &&
    payload.charset !== 'letters' &&
    payload.randomness >= thresholds.minRandomness;
  return { randomLooking, payload };
}
