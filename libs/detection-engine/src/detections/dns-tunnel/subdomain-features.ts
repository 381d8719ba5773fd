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
  /**
   * Vowels (a e i o u y) per letter of the folded payload: 0.35-0.45 in words and word compounds, about 0.23 in
   * random letters.
   */
  vowelShare: number;
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
  let letters = 0;
  let vowels = 0;
  let previousIsDigit: boolean | undefined;
  for (const ch of folded) {
    const isDigit = ch >= '0' && ch <= '9';
    if (previousIsDigit !== undefined && isDigit !== previousIsDigit) switches++;
    previousIsDigit = isDigit;
    if (ch >= 'a' && ch <= 'z') {
      letters++;
      if (VOWELS.has(ch)) vowels++;
    }
  }
  const entropy = shannonEntropy(folded);
  const n = [...folded].length;
  // Letters-only payloads are measured against random letters (26 symbols), hex against 16, the rest against 32.
  const expected = expectedRandomEntropy(n, charset === 'hex' ? 16 : charset === 'letters' ? 26 : 32);
  return {
    length: [...joined].length,
    longestLabel: labels.reduce((m, l) => Math.max(m, [...l].length), 0),
    entropy,
    randomness: expected === 0 ? 0 : entropy / expected,
    charset,
    digitSwitchRate: n === 0 ? 0 : switches / n,
    vowelShare: letters === 0 ? 0 : vowels / letters,
  };
}

const VOWELS: ReadonlySet<string> = new Set(['a', 'e', 'i', 'o', 'u', 'y']);

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
   * Minimum randomness (against 26 letters) of a letters-only payload in a query for a record type that carries
   * data (TXT, NULL, ...): there a long run of random letters is itself telling, so letters alone may suffice.
   */
  minLettersRandomnessForDataRecords: number;
  /** Most vowels per letter such a letters-only payload may have: words have far more than random letters. */
  maxLettersVowelShare: number;
  /**
   * Minimum length of a label holding base64-only characters ('+', '/', '=') for that label alone to count:
   * those characters are not allowed in host names, so only encoders put them in a query, however short.
   */
  minNonHostLabelLength: number;
  /**
   * Minimum digits of a counter label (one letter and a decimal number, `r15989`): the cache-busting
   * sequence number of a tunnel's polls. Set to Infinity to ignore counters.
   */
  minCounterDigits: number;
  /**
   * Shortest label that counts as a short token (a weak signal): one label of letters and digits well mixed,
   * like a tunnel's poll (`d0vfbgrsba`), a C2 beacon's nonce and id (`cdn.3245d602959435f`) or a hex packet
   * header (`8e4c01f86c0867f2fb`). Set to Infinity to ignore short tokens.
   */
  minShortTokenLength: number;
  /**
   * In a query for a data record type ordinary clients practically never ask for (NULL, KEY, private-use types
   * such as iodine's PRIVATE), the type is the evidence: a label of letters and digits this long counts as a short
   * token whatever its mix (an idle tunnel's short polls, `pa2lzaiq`). Set to Infinity to ignore.
   */
  minRareTypeLabelLength: number;
}

export const DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS: RandomSubdomainThresholds = {
  minTokenLength: 12,
  minPayloadLength: 24,
  minRandomness: 0.9,
  minDigitSwitchRate: 0.1,
  minLettersRandomnessForDataRecords: 0.9,
  maxLettersVowelShare: 0.3,
  minNonHostLabelLength: 8,
  // Of the 20,000 popular host names in cisco-top20k, 238 have such a label: Akamai map names (allow-listed),
  // Sentry ingest org ids (allow-listed) and 2 others.
  minCounterDigits: 4,
  minShortTokenLength: 10,
  minRareTypeLabelLength: 5,
};

/** Record types whose answers carry arbitrary data: the usual carriers of tunnelled traffic. */
export const DATA_RECORD_TYPES: ReadonlySet<string> = new Set([
  'TXT', 'NULL', 'ANY',
  // iodine's PRIVATE (65399) and dns2tcp's KEY (25), by name or as RFC 3597 names
  'PRIVATE', 'TYPE65399', 'KEY', 'TYPE25',
]);

/**
 * Data record types that ordinary clients practically never ask for (TXT and ANY are common): in a query for one
 * of them any label of letters and digits of `minRareTypeLabelLength` counts as a short token, mixed or not
 * (dns2tcp's and iodine's idle polls). The private-use range (TYPE65280-TYPE65534) counts too.
 */
const RARE_DATA_RECORD_TYPES: ReadonlySet<string> = new Set(['NULL', 'PRIVATE', 'TYPE10', 'KEY', 'TYPE25']);

export function isRareDataRecordType(qtype: string | undefined): boolean {
  if (qtype === undefined) return false;
  const upper = qtype.toUpperCase();
  if (RARE_DATA_RECORD_TYPES.has(upper)) return true;
  if (upper.length !== 9 || !upper.startsWith('TYPE')) return false;
  const code = Number(upper.slice(4));
  return code >= 65280 && code <= 65534;
}

/**
 * What made a name look like tunnel traffic: a long encoded payload, a label with characters only an encoder
 * puts in a host name, a poll's counter label, or (weak) a short token of letters and digits well mixed.
 */
export type TunnelSignal = 'encoded-payload' | 'non-host-characters' | 'counter-label' | 'short-token';

export interface SubdomainAssessment {
  /** The per-query decision: the name looks like tunnel traffic (a strong {@link TunnelSignal}). */
  randomLooking: boolean;
  /** Why, when any signal was found; the strongest first. `short-token` alone leaves `randomLooking` false. */
  signal?: TunnelSignal;
  /**
   * Features of the candidate payload: the long tokens, or, when a short label raised the signal, the
   * labels that raised it.
   */
  payload: SubdomainFeatures;
}

const NON_HOST_CHARS = /[+/=]/;
const HAS_LETTER = /[a-z]/i;
const ALNUM_LABEL = /^[a-z0-9]+$/;
const HEX_LABEL = /^[0-9a-f]+$/;

function nonHostLabels(labels: string[], minLength: number): string[] {
  return labels.filter((label) => label.length >= minLength && NON_HOST_CHARS.test(label) && HAS_LETTER.test(label));
}

function counterLabels(labels: string[], minDigits: number): string[] {
  if (!Number.isFinite(minDigits)) return [];
  return labels.filter((label) => {
    if (label.length < 1 + minDigits) return false;
    const first = label.charCodeAt(0) | 0x20;
    if (first < 0x61 || first > 0x7a) return false;
    for (let i = 1; i < label.length; i++) {
      const c = label.charCodeAt(i);
      if (c < 0x30 || c > 0x39) return false;
    }
    return true;
  });
}

function isLetterDigitLabel(label: string, minLength: number): boolean {
  return label.length >= minLength && label.length <= 63 && ALNUM_LABEL.test(label.toLowerCase());
}

/**
 * A label of letters and digits mixed the way encoded bytes are: hex with both kinds, or at least 2 digits and 2
 * letters alternating often (words with a number in them alternate once or twice: `emailsignatures365`).
 */
function isShortToken(label: string, minLength: number): boolean {
  if (label.length < minLength || label.length > 63) return false;
  const folded = label.toLowerCase();
  if (!ALNUM_LABEL.test(folded)) return false;
  let digits = 0;
  let switches = 0;
  let previousIsDigit: boolean | undefined;
  for (let i = 0; i < folded.length; i++) {
    const c = folded.charCodeAt(i);
    const isDigit = c >= 0x30 && c <= 0x39;
    if (isDigit) digits++;
    if (previousIsDigit !== undefined && isDigit !== previousIsDigit) switches++;
    previousIsDigit = isDigit;
  }
  const letters = folded.length - digits;
  if (digits < 2 || letters < 2) return false;
  return HEX_LABEL.test(folded) ? switches >= 2 : switches >= 4;
}

/**
 * Judges whether a subdomain (original case) looks like tunnel traffic, strongest signal first:
 * 1. an encoded payload: long tokens that together are long enough and close to random entropy, and either
 *    hold raw bytes / base64 (non-host characters, mixed case) or mix letters and digits the way random
 *    strings do. Letters alone are not enough: a random base32 or hex string of 24+ characters almost surely
 *    contains digits, scattered; words do not (except in TXT/NULL queries, where random letters with few
 *    vowels count, see the thresholds);
 * 2. a shorter label holding '+', '/' or '=', which host names never contain (iodine's raw/base64 polls);
 * 3. a counter label such as `r15989`: the sequence number tunnel clients add to their polls so that no
 *    resolver answers from its cache. This one has benign twins (numbered CDN and SaaS hosts), which the
 *    allow-list and the detection's per-domain window keep from alerting on their own;
 * 4. (weak, `randomLooking` stays false) a short token of letters and digits well mixed: a poll header, a
 *    beacon's nonce. Many benign names have one; only many distinct ones under one domain in a short time say
 *    anything, which is what the detection's window weighs.
 */
export function assessSubdomain(
  subdomain: string,
  thresholds: RandomSubdomainThresholds = DEFAULT_RANDOM_SUBDOMAIN_THRESHOLDS,
  qtype?: string,
): SubdomainAssessment {
  // Most names (www, api-eu, cdn3) can raise no signal: one pass over the characters says so without splitting.
  const shape = shapeOf(subdomain);
  const payload =
    shape.longestToken >= thresholds.minTokenLength
      ? subdomainFeatures(subdomain.split(/[.\-_]/).filter((t) => [...t].length >= thresholds.minTokenLength).join('.'))
      : NO_PAYLOAD;
  const strongEncoding = payload.charset === 'binary' || payload.charset === 'base64';
  const lettersInDataRecord =
    payload.charset === 'letters' &&
    qtype !== undefined &&
    DATA_RECORD_TYPES.has(qtype.toUpperCase()) &&
    payload.randomness >= thresholds.minLettersRandomnessForDataRecords &&
    payload.vowelShare <= thresholds.maxLettersVowelShare;
  const encodedPayload =
    payload.length >= thresholds.minPayloadLength &&
    (lettersInDataRecord ||
      (payload.randomness >= thresholds.minRandomness &&
        (strongEncoding || (payload.charset !== 'letters' && payload.digitSwitchRate >= thresholds.minDigitSwitchRate))));
  if (encodedPayload) return { randomLooking: true, signal: 'encoded-payload', payload };
  // Only a label of minRareTypeLabelLength can count for a rare record type, so the type is read only then.
  const rareType = shape.longestLabel >= thresholds.minRareTypeLabelLength && isRareDataRecordType(qtype);
  const mayHaveLabelSignal =
    shape.hasNonHostCharacter ||
    (shape.hasDigit && shape.longestLabel >= Math.min(1 + thresholds.minCounterDigits, thresholds.minShortTokenLength)) ||
    rareType;
  if (!mayHaveLabelSignal) return payload === NO_PAYLOAD ? NO_SIGNAL : { randomLooking: false, payload };
  const labels = subdomain.split('.');
  const encoderLabels = nonHostLabels(labels, thresholds.minNonHostLabelLength);
  if (encoderLabels.length > 0) {
    return { randomLooking: true, signal: 'non-host-characters', payload: subdomainFeatures(encoderLabels.join('.')) };
  }
  const counters = counterLabels(labels, thresholds.minCounterDigits);
  if (counters.length > 0) return { randomLooking: true, signal: 'counter-label', payload: subdomainFeatures(counters.join('.')) };
  const tokens = labels.filter(
    (label) => isShortToken(label, thresholds.minShortTokenLength) || (rareType && isLetterDigitLabel(label, thresholds.minRareTypeLabelLength)),
  );
  if (tokens.length > 0) return { randomLooking: false, signal: 'short-token', payload: subdomainFeatures(tokens.join('.')) };
  return { randomLooking: false, payload };
}

/** The features of no payload at all (no long token in the name). */
const NO_PAYLOAD: SubdomainFeatures = Object.freeze(subdomainFeatures(''));
const NO_SIGNAL: SubdomainAssessment = Object.freeze({ randomLooking: false, payload: NO_PAYLOAD });

interface SubdomainShape {
  /** Longest run without '.', '-' or '_' (UTF-16 units: never fewer than its characters). */
  longestToken: number;
  /** Longest run without '.'. */
  longestLabel: number;
  hasDigit: boolean;
  /** '+', '/' or '='. */
  hasNonHostCharacter: boolean;
}

function shapeOf(subdomain: string): SubdomainShape {
  let longestToken = 0;
  let longestLabel = 0;
  let token = 0;
  let label = 0;
  let hasDigit = false;
  let hasNonHostCharacter = false;
  for (let i = 0; i < subdomain.length; i++) {
    const c = subdomain.charCodeAt(i);
    if (c === 0x2e) {
      label = 0;
      token = 0;
      continue;
    }
    label++;
    if (label > longestLabel) longestLabel = label;
    if (c === 0x2d || c === 0x5f) {
      token = 0;
      continue;
    }
    token++;
    if (token > longestToken) longestToken = token;
    if (c >= 0x30 && c <= 0x39) hasDigit = true;
    else if (c === 0x2b || c === 0x2f || c === 0x3d) hasNonHostCharacter = true;
  }
  return { longestToken, longestLabel, hasDigit, hasNonHostCharacter };
}