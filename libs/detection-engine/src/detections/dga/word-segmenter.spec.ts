import { readFileSync } from 'node:fs';
import { DEFAULT_WORD_LIST_PATH, defaultWordSegmenter, WordSegmenter } from './word-segmenter';

/** The cheapest path's cost in bits, by a plain dynamic programme over every substring (the costs of word-segmenter.ts). */
function referenceBits(label: string, cost: ReadonlyMap<string, number>): number {
  const single = (code: number) => (code >= 97 && code <= 122 ? 5 : code >= 48 && code <= 57 ? 3.5 : code === 45 || code === 95 ? 1 : 6);
  const best = [0];
  for (let end = 1; end <= label.length; end++) {
    let b = best[end - 1] + single(label.charCodeAt(end - 1));
    for (let start = 0; start < end; start++) {
      const word = cost.get(label.slice(start, end));
      if (word !== undefined) b = Math.min(b, best[start] + word);
    }
    best.push(b);
  }
  return best[label.length];
}

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

  it('finds the cheapest path of a plain search over every substring, with the committed word list', () => {
    const list = readFileSync(DEFAULT_WORD_LIST_PATH, 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
    const cost = new Map<string, number>();
    list.forEach((word, rank) => {
      if (/^[a-z]{1,40}$/.test(word) && !cost.has(word)) cost.set(word, Math.fround(Math.log2(rank + 2) + 2));
    });
    const segmenter = defaultWordSegmenter();
    const labels = ['theirtheandaloneinto', 'headmarch', 'a', 'ab', 'xq', 'qzxv', 'facebook-login', 'mail2web', 'zz9top', 'aaaaaaaa', 'inthe', 'xkqzvbwmnt'];
    let seed = 7;
    const letters = 'abcdefghijklmnopqrstuvwxyz0-';
    for (let i = 0; i < 300; i++) {
      let label = '';
      const length = 1 + (i % 24);
      for (let k = 0; k < length; k++) label += letters[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % letters.length];
      labels.push(label);
    }
    for (const label of labels) expect(segmenter.segment(label).bitsPerChar * label.length).toBeCloseTo(referenceBits(label, cost), 9);
  });
});
