/**
 * Generic generated labels of each DGA style, added to the training data so that the model learns the styles
 * (uniformly random characters, made-up pronounceable words, strings of English words, encodings) and not only
 * the quirks of the families in the data. They follow no particular family: the alphabets, lengths and word
 * lists are the plain ones of each style. Seeded: the same arguments give the same labels.
 */
import { mulberry32 } from './classifier';
import type { DgaStyle } from './family-styles';

export interface SyntheticLabel {
  label: string;
  family: string;
  style: DgaStyle;
}

type Random = () => number;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const HEX = '0123456789abcdef';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const VOWELS = 'aeiou';
const CONSONANTS = 'bcdfghjklmnpqrstvwxyz';
const ONSETS = [...CONSONANTS.split(''), 'bl', 'br', 'ch', 'cl', 'cr', 'dr', 'fl', 'fr', 'gl', 'gr', 'kr', 'ph', 'pl', 'pr', 'sh', 'sk', 'sl', 'sp', 'st', 'th', 'tr', 'wh'];
const NUCLEI = [...VOWELS.split(''), 'ai', 'au', 'ea', 'ee', 'ie', 'io', 'oa', 'oo', 'ou', 'ue', 'y'];
const CODAS = ['', '', '', 'n', 'r', 's', 't', 'l', 'm', 'x', 'ck', 'ng', 'nt', 'rd', 'st'];

function int(random: Random, lo: number, hi: number): number {
  return lo + Math.floor(random() * (hi - lo + 1));
}

function pick<T>(random: Random, items: readonly T[] | string): T {
  return items[Math.floor(random() * items.length)] as T;
}

function draw(random: Random, alphabet: string, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[Math.floor(random() * alphabet.length)];
  return s;
}

function randomLabel(random: Random): string {
  const u = random();
  if (u < 0.55) return draw(random, LETTERS, int(random, 6, 30));
  if (u < 0.85) return draw(random, ALNUM, int(random, 6, 30));
  // Letters with one or two digits somewhere, as many families do.
  const letters = draw(random, LETTERS, int(random, 6, 18)).split('');
  for (let d = int(random, 1, 2); d > 0; d--) letters.splice(int(random, 0, letters.length), 0, String(int(random, 0, 9)));
  return letters.join('');
}

function pronounceableLabel(random: Random): string {
  const target = int(random, 6, 22);
  const u = random();
  let s = '';
  while (s.length < target) {
    if (u < 0.4) s += pick<string>(random, CONSONANTS) + pick<string>(random, VOWELS); // strict CV
    else s += (random() < 0.85 ? pick(random, ONSETS) : '') + pick(random, NUCLEI) + pick(random, CODAS);
  }
  return s.slice(0, Math.max(target, 6));
}

function wordsLabel(random: Random, words: readonly string[]): string {
  const count = random() < 0.55 ? 2 : random() < 0.7 ? 3 : 4;
  const parts = Array.from({ length: count }, () => words[Math.floor(random() * words.length)]);
  const joiner = random() < 0.15 ? '-' : '';
  let label = parts.join(joiner);
  if (random() < 0.1) label += String(int(random, 0, 99));
  return label.slice(0, 63);
}

function encodedLabel(random: Random): string {
  const u = random();
  if (u < 0.5) return draw(random, HEX, pick(random, [8, 12, 16, 20, 24, 32]));
  return draw(random, BASE32, int(random, 8, 32));
}

/** Words of the generator: 3-10 letters, outside the very common ones (ranks 100-20,000 of the list). */
export function generatorWords(wordList: readonly string[]): string[] {
  return wordList.slice(100, 20_000).filter((w) => w.length >= 3 && w.length <= 10);
}

export const SYNTHETIC_COUNTS: Record<DgaStyle, number> = { random: 8000, pronounceable: 5000, dictionary: 5000, encoded: 3000 };

export function syntheticLabels(wordList: readonly string[], seed: number, counts: Record<DgaStyle, number> = SYNTHETIC_COUNTS): SyntheticLabel[] {
  const random = mulberry32(seed);
  const words = generatorWords(wordList);
  const make: Record<DgaStyle, () => string> = {
    random: () => randomLabel(random),
    pronounceable: () => pronounceableLabel(random),
    dictionary: () => wordsLabel(random, words),
    encoded: () => encodedLabel(random),
  };
  return (Object.keys(counts) as DgaStyle[]).flatMap((style) =>
    Array.from({ length: counts[style] }, () => ({ label: make[style](), family: `synthetic_${style}`, style })),
  );
}
