import { CharLanguageModel, LABEL_ALPHABET } from './char-language-model';
import { DENSE_FEATURE_COUNT, DENSE_FEATURE_NAMES, denseFeatures as features, labelTokens, maxTokens } from './label-features';
import { WordSegmenter } from './word-segmenter';

const popular = ['google', 'facebook', 'amazon', 'wikipedia', 'microsoft', 'apple', 'netflix', 'youtube', 'twitter', 'linkedin'];
const lm = CharLanguageModel.train(popular);
const dgaLm = CharLanguageModel.train(['xkqzvbnm', 'qzjxkvwp', 'vbnqzxkj']);
const words = new WordSegmenter(['the', 'best', 'buy', 'head', 'march']);
const denseFeatures = (label: string, a: CharLanguageModel, b: CharLanguageModel, out?: Float64Array): Float64Array => features(label, a, b, words, out);

function feature(label: string, name: (typeof DENSE_FEATURE_NAMES)[number]): number {
  return denseFeatures(label, lm, dgaLm)[DENSE_FEATURE_NAMES.indexOf(name)];
}

describe('CharLanguageModel', () => {
  it('finds labels like its training labels less surprising than random ones', () => {
    const mean = (label: string): number => lm.surprisals(label).reduce((a, b) => a + b, 0) / (label.length + 1);
    expect(lm.surprisals('google')).toHaveLength(7);
    expect(mean('google')).toBeLessThan(2);
    expect(mean('qxzkvj')).toBeGreaterThan(5);
    expect(lm.surprisals('gOOgle!').every((s) => Number.isFinite(s))).toBe(true);
  });

  it('refuses a table of the wrong size', () => {
    expect(() => new CharLanguageModel(new Uint8Array(10))).toThrow(/expected 59319 entries/);
    expect(LABEL_ALPHABET).toHaveLength(38);
  });
});

describe('label features', () => {
  it('measures structure', () => {
    expect(denseFeatures('abc', lm, dgaLm)).toHaveLength(DENSE_FEATURE_COUNT);
    expect(feature('ab12cd', 'digit_ratio')).toBeCloseTo(2 / 6);
    expect(feature('ab12cd', 'letter_digit_switch_rate')).toBeCloseTo(2 / 5);
    expect(feature('strengths', 'max_consonant_run/10')).toBeCloseTo(0.5); // n-g-t-h-s
    expect(feature('a-b', 'has_hyphen')).toBe(1);
    expect(feature('deadbeef00', 'is_hex_8_plus')).toBe(1);
    expect(feature('aaaa', 'entropy/4')).toBe(0);
    expect(feature('google', 'len_5_6')).toBe(1);
    expect(feature('qxzkvjwp', 'llr_mean/5')).toBeGreaterThan(feature('google', 'llr_mean/5'));
    expect(denseFeatures('', lm, dgaLm).every((x) => x === 0)).toBe(true);
  });

  it('measures how the label cuts into words', () => {
    expect(feature('headmarch', 'seg_coverage')).toBe(1);
    expect(feature('headmarch', 'seg_all_words')).toBe(1);
    expect(feature('headmarch', 'seg_words/4')).toBe(0.5);
    expect(feature('qxzkvjwp', 'seg_coverage')).toBe(0);
    expect(feature('bestqx', 'seg_longest_word_ratio')).toBeCloseTo(4 / 6);
  });

  it('writes into a given buffer and gives the same numbers as a fresh call', () => {
    const out = new Float64Array(DENSE_FEATURE_COUNT);
    denseFeatures('xkqzvbnm', lm, dgaLm, out);
    expect(denseFeatures('google', lm, dgaLm, out)).toBe(out);
    expect(Array.from(out)).toEqual(Array.from(denseFeatures('google', lm, dgaLm)));
  });
});

describe('label tokens', () => {
  it('hashes every n-gram of ^label$, positional characters and the length into the bucket range', () => {
    const unigrams = { maxOrder: 1, positionTokens: 0, buckets: 64 };
    const { buckets, count } = labelTokens('aaaa', unigrams);
    // ^ a a a a $ -> 6 unigrams, then the length token
    expect(count).toBe(7);
    const tokens = Array.from(buckets.subarray(0, count));
    expect(tokens.every((b) => b >= 0 && b < 64)).toBe(true);
    expect(new Set(tokens.slice(1, 5)).size).toBe(1);

    const scheme = { maxOrder: 5, positionTokens: 6, buckets: 1 << 16 };
    const label = 'kdpejqcwzb';
    // n-grams of orders 1-5 over 12 padded characters: 12 + 11 + 10 + 9 + 8; 2 x 6 positional; 1 length
    expect(labelTokens(label, scheme).count).toBe(50 + 12 + 1);
    expect(maxTokens(label.length, scheme)).toBeGreaterThanOrEqual(63);
    expect(labelTokens('', scheme).count).toBe(1 + 2 + 1); // ^, ^$, $ and the length
  });

  it('grows its scratch buffer for very long labels', () => {
    const long = 'a'.repeat(300);
    expect(labelTokens(long, { maxOrder: 3, positionTokens: 2, buckets: 8 }).count).toBe(302 + 301 + 300 + 4 + 1);
  });
});
