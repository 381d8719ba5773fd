import { symbolOf, type CharLanguageModel } from './char-language-model';
import type { Segmentation, WordSegmenter } from './word-segmenter';

/**
 * Features of one registrable label (`example` of `www.example.co.uk`), shared by the training script and
 * inference so that both see exactly the same numbers. The TLD is deliberately not a feature.
 */

export const DENSE_FEATURE_NAMES = [
  'length/40',
  'len_1_4',
  'len_5_6',
  'len_7_8',
  'len_9_10',
  'len_11_13',
  'len_14_17',
  'len_18_24',
  'len_25_plus',
  'digit_ratio',
  'has_hyphen',
  'has_underscore',
  'vowel_ratio',
  'max_consonant_run/10',
  'max_consonant_run_ratio',
  'max_vowel_run/5',
  'max_digit_run_ratio',
  'entropy/4',
  'entropy_ratio',
  'distinct_ratio',
  'letter_digit_switch_rate',
  'lm_mean_surprisal/10',
  'lm_max_surprisal/20',
  'lm_rare_fraction',
  'lm_mean_x_short',
  'lm_mean_x_long',
  'lm_sum_surprisal/50',
  'llr_vs_uniform/20',
  'is_hex_8_plus',
  'digit_letter_mix',
  'dga_lm_mean_surprisal/10',
  'llr_mean/5',
  'llr_sum/40',
  'llr_min/10',
  'seg_bits_per_char/5',
  'seg_coverage',
  'seg_words/4',
  'seg_mean_word_len/10',
  'seg_max_word_bits/20',
  'seg_all_words',
  'seg_longest_word_ratio',
] as const;

export const DENSE_FEATURE_COUNT = DENSE_FEATURE_NAMES.length;

const LENGTH_BUCKETS: readonly [number, number][] = [
  [1, 4],
  [5, 6],
  [7, 8],
  [9, 10],
  [11, 13],
  [14, 17],
  [18, 24],
  [25, Infinity],
];
/** A transition this surprising (bits) is rare in popular labels. */
const RARE_SURPRISAL_BITS = 9;

const enum CharClass {
  Other = 0,
  Digit = 1,
  Vowel = 2,
  Consonant = 3,
}

function classOf(code: number): CharClass {
  if (code >= 48 && code <= 57) return CharClass.Digit;
  if (code < 97 || code > 122) return CharClass.Other;
  return code === 97 || code === 101 || code === 105 || code === 111 || code === 117 ? CharClass.Vowel : CharClass.Consonant;
}

function isHexCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102);
}

/** Scratch buffers reused by every call (scoring is synchronous), grown for unusually long labels. */
let benignSurprisal = new Float64Array(80);
let dgaSurprisal = new Float64Array(80);
const symbolCounts = new Int32Array(64);
const segmentation: Segmentation = { bitsPerChar: 0, coverage: 0, words: 0, meanWordLength: 0, maxWordBits: 0, longestWord: 0 };

/**
 * `lm` is the character model of popular labels, `dgaLm` the one of generated labels; their per-character
 * log-likelihood ratio is the strongest single feature. `words` cuts the label into English words (evidence
 * about dictionary DGAs). Writes into `out` when given.
 */
export function denseFeatures(
  label: string,
  lm: CharLanguageModel,
  dgaLm: CharLanguageModel,
  words: WordSegmenter,
  out: Float64Array = new Float64Array(DENSE_FEATURE_COUNT),
): Float64Array {
  const n = label.length;
  const f = out;
  f.fill(0);
  if (n === 0) return f;
  let digits = 0;
  let letters = 0;
  let vowels = 0;
  let consonantRun = 0;
  let maxConsonantRun = 0;
  let vowelRun = 0;
  let maxVowelRun = 0;
  let digitRun = 0;
  let maxDigitRun = 0;
  let switches = 0;
  let allHex = true;
  let hyphen = 0;
  let underscore = 0;
  let previous = CharClass.Other;
  symbolCounts.fill(0);
  for (let i = 0; i < n; i++) {
    const code = label.charCodeAt(i);
    symbolCounts[symbolOf(code)]++;
    const cls = classOf(code);
    if (!isHexCode(code)) allHex = false;
    if (code === 45) hyphen = 1;
    if (code === 95) underscore = 1;
    const digit = cls === CharClass.Digit;
    const letter = cls === CharClass.Vowel || cls === CharClass.Consonant;
    if (digit) digits++;
    if (letter) letters++;
    if (cls === CharClass.Vowel) vowels++;
    consonantRun = cls === CharClass.Consonant ? consonantRun + 1 : 0;
    vowelRun = cls === CharClass.Vowel ? vowelRun + 1 : 0;
    digitRun = digit ? digitRun + 1 : 0;
    if (consonantRun > maxConsonantRun) maxConsonantRun = consonantRun;
    if (vowelRun > maxVowelRun) maxVowelRun = vowelRun;
    if (digitRun > maxDigitRun) maxDigitRun = digitRun;
    const previousLetter = previous === CharClass.Vowel || previous === CharClass.Consonant;
    if (i > 0 && ((digit && previousLetter) || (letter && previous === CharClass.Digit))) switches++;
    previous = cls;
  }
  let entropy = 0;
  let distinct = 0;
  for (let k = 0; k < symbolCounts.length; k++) {
    const c = symbolCounts[k];
    if (c === 0) continue;
    distinct++;
    entropy -= (c / n) * Math.log2(c / n);
  }

  if (benignSurprisal.length < n + 1) {
    benignSurprisal = new Float64Array(n + 1);
    dgaSurprisal = new Float64Array(n + 1);
  }
  lm.surprisalsInto(label, benignSurprisal);
  dgaLm.surprisalsInto(label, dgaSurprisal);
  const steps = n + 1;
  let sum = 0;
  let max = 0;
  let rare = 0;
  let dgaSum = 0;
  let llrMin = Infinity;
  for (let k = 0; k < steps; k++) {
    const s = benignSurprisal[k];
    sum += s;
    if (s > max) max = s;
    if (s >= RARE_SURPRISAL_BITS) rare++;
    dgaSum += dgaSurprisal[k];
    const llr = s - dgaSurprisal[k];
    if (llr < llrMin) llrMin = llr;
  }
  const lmMean = sum / steps / 10;

  let i = 0;
  f[i++] = Math.min(n, 40) / 40;
  for (let b = 0; b < LENGTH_BUCKETS.length; b++) f[i++] = n >= LENGTH_BUCKETS[b][0] && n <= LENGTH_BUCKETS[b][1] ? 1 : 0;
  f[i++] = digits / n;
  f[i++] = hyphen;
  f[i++] = underscore;
  f[i++] = letters > 0 ? vowels / letters : 0;
  f[i++] = Math.min(maxConsonantRun, 10) / 10;
  f[i++] = maxConsonantRun / n;
  f[i++] = Math.min(maxVowelRun, 5) / 5;
  f[i++] = maxDigitRun / n;
  f[i++] = entropy / 4;
  f[i++] = n > 1 ? entropy / Math.log2(n) : 0;
  f[i++] = distinct / n;
  f[i++] = n > 1 ? switches / (n - 1) : 0;
  f[i++] = lmMean;
  f[i++] = max / 20;
  f[i++] = rare / steps;
  f[i++] = n <= 8 ? lmMean : 0;
  f[i++] = n >= 13 ? lmMean : 0;
  f[i++] = sum / 50;
  // Bits by which a uniform draw from the label's own alphabet explains the label better than popular names do.
  const alphabet = digits === n ? 10 : allHex ? 16 : digits > 0 ? 36 : 26;
  f[i++] = (sum - n * Math.log2(alphabet)) / 20;
  f[i++] = n >= 8 && alphabet === 16 ? 1 : 0;
  f[i++] = digits > 0 && letters > 0 ? Math.min(digits, letters) / n : 0;
  f[i++] = dgaSum / steps / 10;
  f[i++] = (sum - dgaSum) / steps / 5;
  f[i++] = (sum - dgaSum) / 40;
  f[i++] = llrMin / 10;
  const seg = words.segment(label, segmentation);
  f[i++] = seg.bitsPerChar / 5;
  f[i++] = seg.coverage;
  f[i++] = Math.min(seg.words, 8) / 4;
  f[i++] = seg.meanWordLength / 10;
  f[i++] = seg.maxWordBits / 20;
  f[i++] = seg.coverage === 1 && seg.words >= 2 ? 1 : 0;
  f[i++] = seg.longestWord / n;
  return f;
}

/** How a label is cut into hashed tokens (stored in the model file). */
export interface TokenScheme {
  /** Character n-grams of `^label$` of every order 1..maxOrder. */
  maxOrder: number;
  /** Characters at positions 0..k-1 from the start and from the end also count as positional tokens. */
  positionTokens: number;
  /** Number of hash buckets; a power of two. */
  buckets: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const CARET = 94;
const DOLLAR = 36;
const FROM_START_SEED = Math.imul(FNV_OFFSET ^ 0x70, FNV_PRIME);
const FROM_END_SEED = Math.imul(FNV_OFFSET ^ 0x71, FNV_PRIME);
const LENGTH_SEED = Math.imul(FNV_OFFSET ^ 0x6c, FNV_PRIME);

let tokenScratch = new Int32Array(512);

/** Largest number of tokens {@link labelTokens} can produce for a label of length n. */
export function maxTokens(n: number, scheme: TokenScheme): number {
  return scheme.maxOrder * (n + 2) + 2 * scheme.positionTokens + 1;
}

/**
 * Hashed tokens of a label: every n-gram of `^label$` of orders 1..maxOrder (32-bit FNV-1a of the n-gram),
 * the first and last `positionTokens` characters with their position, and the exact length. Bucket indexes go
 * into a shared scratch buffer (valid until the next call); returns it and the count. Repeated tokens repeat.
 */
export function labelTokens(label: string, scheme: TokenScheme): { buckets: Int32Array; count: number } {
  const n = label.length;
  const needed = maxTokens(n, scheme);
  if (tokenScratch.length < needed) tokenScratch = new Int32Array(needed * 2);
  const buf = tokenScratch;
  const mask = scheme.buckets - 1;
  const padded = n + 2;
  let count = 0;
  for (let i = 0; i < padded; i++) {
    let h = FNV_OFFSET;
    const end = Math.min(padded, i + scheme.maxOrder);
    for (let k = i; k < end; k++) {
      const code = k === 0 ? CARET : k === padded - 1 ? DOLLAR : label.charCodeAt(k - 1);
      h = Math.imul(h ^ code, FNV_PRIME);
      buf[count++] = (h ^ (h >>> 15)) & mask;
    }
  }
  const positions = Math.min(scheme.positionTokens, n);
  for (let p = 0; p < positions; p++) {
    const fromStart = Math.imul(Math.imul(FROM_START_SEED ^ p, FNV_PRIME) ^ label.charCodeAt(p), FNV_PRIME);
    buf[count++] = (fromStart ^ (fromStart >>> 15)) & mask;
    const fromEnd = Math.imul(Math.imul(FROM_END_SEED ^ p, FNV_PRIME) ^ label.charCodeAt(n - 1 - p), FNV_PRIME);
    buf[count++] = (fromEnd ^ (fromEnd >>> 15)) & mask;
  }
  const length = Math.imul(LENGTH_SEED ^ Math.min(n, 64), FNV_PRIME);
  buf[count++] = (length ^ (length >>> 15)) & mask;
  return { buckets: buf, count };
}
