import { defaultWordSegmenter, WordSegmenter } from './word-segmenter';

describe('WordSegmenter', () => {
  const small = new WordSegmenter(['the', 'head', 'march', 'best', 'buy', 'face', 'book', 'facebook']);

  it('cuts a label into its cheapest words, preferring frequent and long words', () => {
    expect(small.words('headmarch')).toEqual(['head', 'march']);
    expect(small.words('facebook')).toEqual(['facebook']);
    expect(small.words('xbestq')).toEqual(['best']);
  });

  it('measures coverage, word count and cost per character', () => {
    const words = small.segment('headmarch');
    expect(words).toMatchObject({ coverage: 1, words: 2, meanWordLength: 4.5, longestWord: 5 });
    const random = small.segment('xkqzvb');
    expect(random).toMatchObject({ coverage: 0, words: 0, maxWordBits: 0 });
    expect(random.bitsPerChar).toBe(5);
    expect(words.bitsPerChar).toBeLessThan(random.bitsPerChar);
    expect(small.segment('a1-b2')).toMatchObject({ coverage: 0, words: 0 });
    expect(small.segment('')).toMatchObject({ bitsPerChar: 0, coverage: 0 });
  });

  it('cuts long labels at 64 characters and ignores words that are not lower-case a-z', () => {
    expect(small.segment('the'.repeat(40)).words).toBe(21);
    expect(new WordSegmenter(['Bad', 'ok-ish', 'fine']).size).toBe(1);
  });

  it('loads the committed word list with its hash', () => {
    const words = defaultWordSegmenter();
    expect(words.size).toBeGreaterThan(40_000);
    expect(words.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(words.words('theirtheandaloneinto')).toEqual(['their', 'the', 'and', 'alone', 'into']);
    expect(() => WordSegmenter.load('/nonexistent/words.txt')).toThrow(/cannot read/);
  });
});
