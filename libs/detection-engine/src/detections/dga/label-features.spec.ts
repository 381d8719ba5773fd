import { CharLanguageModel, LABEL_ALPHABET } from './char-language-model';
import { DENSE_FEATURE_COUNT, DENSE_FEATURE_NAMES, denseFeatures, EXPANDED_DENSE_COUNT, expandDense, ngramFeatures } from './label-features';

const popular = ['google', 'facebook', 'amazon', 'wikipedia', 'microsoft', 'apple', 'netflix', 'youtube', 'twitter', 'linkedin'];
const lm = CharLanguageModel.train(popular);
const dgaLm = CharLanguageModel.train(['xkqzvbnm', 'qzjxkvwp', 'vbnqzxkj']);

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

  it('expands to products of pairs', () => {
    const x = Float64Array.from({ length: DENSE_FEATURE_COUNT }, (_, i) => (i === 0 ? 2 : i === 1 ? 3 : 0));
    const e = expandDense(x);
    expect(e).toHaveLength(EXPANDED_DENSE_COUNT);
    expect(e[DENSE_FEATURE_COUNT]).toBe(1); // 2 * 2 / 4
    expect(e[DENSE_FEATURE_COUNT + 1]).toBe(1.5); // 2 * 3 / 4
  });

  it('hashes n-grams into the bucket range, summing repeats, normalised by count', () => {
    const { index, value } = ngramFeatures('aaaa', 64, [1]);
    // ^ a a a a $ -> 3 distinct unigrams, 6 in all
    expect(index).toHaveLength(3);
    expect([...index].every((b) => b >= 0 && b < 64)).toBe(true);
    expect(Math.max(...value)).toBeCloseTo(4 / Math.sqrt(6));
    expect(ngramFeatures('', 64, [2]).index).toHaveLength(1);
  });
});
