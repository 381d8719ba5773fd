import type { CharLanguageModel } from './char-language-model';

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
const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);
/** A transition this surprising (bits) is rare in popular labels. */
const RARE_SURPRISAL_BITS = 9;

function isDigit(ch: string): boolean {
  return ch >= '0' && ch <= '9';
}
function isLetter(ch: string): boolean {
  return ch >= 'a' && ch <= 'z';
}

/**
 * `lm` is the character model of popular labels, `dgaLm` the one of generated labels; their per-character
 * log-likelihood ratio is the strongest single feature.
 */
export function denseFeatures(label: string, lm: CharLanguageModel, dgaLm: CharLanguageModel): Float64Array {
  const n = label.length;
  const f = new Float64Array(DENSE_FEATURE_COUNT);
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
  const counts = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const ch = label[i];
    counts.set(ch, (counts.get(ch) ?? 0) + 1);
    const digit = isDigit(ch);
    const letter = isLetter(ch);
    const vowel = VOWELS.has(ch);
    if (digit) digits++;
    if (letter) letters++;
    if (vowel) vowels++;
    consonantRun = letter && !vowel ? consonantRun + 1 : 0;
    vowelRun = vowel ? vowelRun + 1 : 0;
    digitRun = digit ? digitRun + 1 : 0;
    maxConsonantRun = Math.max(maxConsonantRun, consonantRun);
    maxVowelRun = Math.max(maxVowelRun, vowelRun);
    maxDigitRun = Math.max(maxDigitRun, digitRun);
    if (i > 0 && ((digit && isLetter(label[i - 1])) || (letter && isDigit(label[i - 1])))) switches++;
  }
  let entropy = 0;
  for (const c of counts.values()) entropy -= (c / n) * Math.log2(c / n);

  const surprisals = lm.surprisals(label);
  let sum = 0;
  let max = 0;
  let rare = 0;
  for (const s of surprisals) {
    sum += s;
    max = Math.max(max, s);
    if (s >= RARE_SURPRISAL_BITS) rare++;
  }
  const lmMean = sum / surprisals.length / 10;

  let i = 0;
  f[i++] = Math.min(n, 40) / 40;
  for (const [lo, hi] of LENGTH_BUCKETS) f[i++] = n >= lo && n <= hi ? 1 : 0;
  f[i++] = digits / n;
  f[i++] = label.includes('-') ? 1 : 0;
  f[i++] = label.includes('_') ? 1 : 0;
  f[i++] = letters > 0 ? vowels / letters : 0;
  f[i++] = Math.min(maxConsonantRun, 10) / 10;
  f[i++] = maxConsonantRun / n;
  f[i++] = Math.min(maxVowelRun, 5) / 5;
  f[i++] = maxDigitRun / n;
  f[i++] = entropy / 4;
  f[i++] = n > 1 ? entropy / Math.log2(n) : 0;
  f[i++] = counts.size / n;
  f[i++] = n > 1 ? switches / (n - 1) : 0;
  f[i++] = lmMean;
  f[i++] = max / 20;
  f[i++] = rare / surprisals.length;
  f[i++] = n <= 8 ? lmMean : 0;
  f[i++] = n >= 13 ? lmMean : 0;
  f[i++] = sum / 50;
  // Bits by which a uniform draw from the label's own alphabet explains the label better than popular names do.
  const alphabet = digits === n ? 10 : /^[0-9a-f]+$/.test(label) ? 16 : digits > 0 ? 36 : 26;
  f[i++] = (sum - n * Math.log2(alphabet)) / 20;
  f[i++] = n >= 8 && alphabet === 16 ? 1 : 0;
  f[i++] = digits > 0 && letters > 0 ? Math.min(digits, letters) / n : 0;
  const dgaSurprisals = dgaLm.surprisals(label);
  let dgaSum = 0;
  let llrMin = Infinity;
  for (let k = 0; k < dgaSurprisals.length; k++) {
    dgaSum += dgaSurprisals[k];
    llrMin = Math.min(llrMin, surprisals[k] - dgaSurprisals[k]);
  }
  f[i++] = dgaSum / dgaSurprisals.length / 10;
  f[i++] = (sum - dgaSum) / dgaSurprisals.length / 5;
  f[i++] = (sum - dgaSum) / 40;
  f[i++] = llrMin / 10;
  return f;
}

/**
 * Hashed character n-grams of `^label$` (of the given orders; the model uses 1-4), each bucket weighted 1/sqrt(number of n-grams) so that
 * long labels do not dominate. Returns parallel arrays of bucket indexes and values (bucket repeats summed).
 */
export function ngramFeatures(label: string, buckets: number, orders: readonly number[]): { index: Int32Array; value: Float64Array } {
  const padded = `^${label}$`;
  const counts = new Map<number, number>();
  let total = 0;
  for (const order of orders) {
    const orderCode = 48 + order; // the n-gram is hashed as the text `${order}${ngram}` (32-bit FNV-1a)
    for (let i = 0; i + order <= padded.length; i++) {
      let h = Math.imul(0x811c9dc5 ^ orderCode, 0x01000193);
      for (let k = i; k < i + order; k++) h = Math.imul(h ^ padded.charCodeAt(k), 0x01000193);
      const bucket = (h >>> 0) % buckets;
      counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
      total++;
    }
  }
  const index = new Int32Array(counts.size);
  const value = new Float64Array(counts.size);
  const norm = total > 0 ? 1 / Math.sqrt(total) : 0;
  let k = 0;
  for (const [bucket, count] of counts) {
    index[k] = bucket;
    value[k] = count * norm;
    k++;
  }
  return { index, value };
}

/** Length of {@link expandDense}'s output: the features, then every product of two (squares included). */
export const EXPANDED_DENSE_COUNT = DENSE_FEATURE_COUNT + (DENSE_FEATURE_COUNT * (DENSE_FEATURE_COUNT + 1)) / 2;

/**
 * Standardised dense features plus their pairwise products, so that a linear model can weigh evidence that
 * depends on other evidence (the same surprisal means more in a long label than in a short one).
 */
export function expandDense(standardised: Float64Array): Float64Array {
  const n = standardised.length;
  const out = new Float64Array(EXPANDED_DENSE_COUNT);
  out.set(standardised);
  let k = n;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) out[k++] = (standardised[i] * standardised[j]) / 4;
  return out;
}
