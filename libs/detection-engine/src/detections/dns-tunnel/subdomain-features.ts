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
  /**
   * Letter/digit alternations per character of the folded payload: about 0.3 for random base32, 0.45 for
   * hex, under 0.1 for words with a number in them (`emailsignatures365`).
   */
  digitSwitchRate: number;
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
  let switches = 0;
  let previousIsDigit: boolean | undefined;
  for (const ch of folded) {
    const isDigit = ch >= '0' && ch <= '9';
    if (previousIsDigit !== undefined && isDigit !== previousIsDigit) switches++;
    previousIsDigit = isDigit;
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
    digitSwitchRate: n === 0 ? 0 : switches / n,
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
  /** Minimum {@link SubdomainFeatures.digitSwitchRate} for payloads of letters and digits only. */
  minDigitSwitchRate: number;
  /**
   * Minimum randomness of a letters-only payload in a query for a record type that carries data (TXT, NULL):
   * there a long run of letters is itself telling, so letters alone may suffice.
   */
  minLettersRandomnessForDataRecords: number;
}

export const DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS: RandomSubdomainThresholds = {
  minTokenLength: 12,
  minPayloadLength: 24,
  minRandomness: 0.9,
  minDigitSwitchRate: 0.1,
  // Random letters measure about 1.1 here (their alphabet is smaller than the 32-symbol reference); long words
  // and word compounds 0.8-0.9 (`internationalizationservices` 0.83, `mailchimpappcustomercontent` 0.91).
  minLettersRandomnessForDataRecords: 1.0,
};

/** Record types whose answers carry arbitrary data: the usual carriers of tunnelled traffic. */
export const DATA_RECORD_TYPES: ReadonlySet<string> = new Set(['TXT', 'NULL', 'PRIVATE', 'ANY']);

export interface SubdomainAssessment {
  randomLooking: boolean;
  /** Features of the long tokens (the candidate payload). */
  payload: SubdomainFeatures;
}

/**
 * Judges whether a subdomain (original case) looks like an encoded payload: long tokens that together are
 * long enough and close to random entropy, and either hold raw bytes / base64 (non-host characters, mixed
 * case) or mix letters and digits the way random strings do. Letters alone are not enough: a random
 * base32 or hex string of 24+ characters almost surely contains digits, scattered; words do not.
 */
export function assessSubdomain(
  subdomain: string,
  thresholds: RandomSubdomainThresholds = DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS,
  qtype?: string,
): SubdomainAssessment {
  const longTokens = subdomain.split(/[.\-_]/).filter((t) => [...t].length >= thresholds.minTokenLength);
  const payload = subdomainFeatures(longTokens.join('.'));
  const strongEncoding = payload.charset === 'binary' || payload.charset === 'base64';
  const lettersInDataRecord =
    payload.charset === 'letters' &&
    qtype !== undefined &&
    DATA_RECORD_TYPES.has(qtype.toUpperCase()) &&
    payload.randomness >= thresholds.minLettersRandomnessForDataRecords;
  const randomLooking =
    payload.length >= thresholds.minPayloadLength &&
    (lettersInDataRecord ||
      (payload.randomness >= thresholds.minRandomness &&
        (strongEncoding || (payload.charset !== 'letters' && payload.digitSwitchRate >= thresholds.minDigitSwitchRate))));
  return { randomLooking, payload };
}
