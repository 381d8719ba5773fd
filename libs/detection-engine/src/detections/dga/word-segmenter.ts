import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Cuts a label into English words (a unigram model over a frequency-ranked word list, Viterbi over a trie):
 * the evidence against dictionary DGAs, whose labels are two to four unrelated words (`headmarch`,
 * `theirtheandaloneinto`), and for people's names, which are mostly one or two common words.
 * A word of rank r costs log2(r + 2) + WORD_BITS bits; a character outside any word costs what a uniform draw of
 * its class does, so the cheapest path says how word-like a label is.
 */

export const DEFAULT_WORD_LIST_PATH = join(__dirname, '..', '..', '..', 'data', 'dga', 'words.txt');

const WORD_BITS = 2;
const LETTER_BITS = 5;
const DIGIT_BITS = 3.5;
const SEPARATOR_BITS = 1;
const OTHER_BITS = 6;
/** Words of this many letters or more count as words in the features (shorter ones match random labels too). */
export const MIN_FEATURE_WORD = 3;
const MAX_LABEL = 64;

/** The numbers the segmentation adds to a label's features. */
export interface Segmentation {
  /** Cost of the cheapest path in bits per character. */
  bitsPerChar: number;
  /** Share of the letters that lie in words of >= MIN_FEATURE_WORD letters. */
  coverage: number;
  /** Words of >= MIN_FEATURE_WORD letters on the path. */
  words: number;
  meanWordLength: number;
  /** Cost in bits of the rarest such word (0 without words). */
  maxWordBits: number;
  longestWord: number;
}

export class WordSegmenter {
  /** Trie in arrays: the edges of node k are edgeChar/edgeTarget[edgeStart[k] .. edgeStart[k + 1]). */
  private readonly edgeStart: Int32Array;
  private readonly edgeChar: Uint8Array;
  private readonly edgeTarget: Int32Array;
  /** Cost of the word ending at node k, or 0 when no word ends there. */
  private readonly wordCost: Float32Array;
  /**
   * The node each one- and two-letter prefix leads to (-1: none; two letters at index first * 26 + second): every
   * start position walks the first two levels, whose nodes have the most edges to scan.
   */
  private readonly firstLevel: Int32Array;
  private readonly secondLevel: Int32Array;
  private readonly best = new Float64Array(MAX_LABEL + 1);
  private readonly from = new Int32Array(MAX_LABEL + 1);
  private readonly isWord = new Uint8Array(MAX_LABEL + 1);
  private readonly stepCost = new Float64Array(MAX_LABEL + 1);
  readonly size: number;

  /**
   * `words`: lower-case a-z words, most frequent first. `sha256`: of the list's file, which a model file names
   * so that a model is never used with another list than the one it was trained with.
   */
  constructor(
    words: readonly string[],
    readonly sha256?: string,
  ) {
    type Node = { children: Map<number, Node>; cost: number };
    const root: Node = { children: new Map(), cost: 0 };
    let size = 0;
    words.forEach((word, rank) => {
      if (!/^[a-z]{1,40}$/.test(word)) return;
      let node = root;
      for (let i = 0; i < word.length; i++) {
        const c = word.charCodeAt(i) - 97;
        let next = node.children.get(c);
        if (next === undefined) node.children.set(c, (next = { children: new Map(), cost: 0 }));
        node = next;
      }
      if (node.cost === 0) {
        node.cost = Math.log2(rank + 2) + WORD_BITS;
        size++;
      }
    });
    this.size = size;
    const order: Node[] = [root];
    for (let k = 0; k < order.length; k++) for (const c of [...order[k].children.keys()].sort((a, b) => a - b)) order.push(order[k].children.get(c)!);
    const index = new Map(order.map((n, k) => [n, k]));
    this.edgeStart = new Int32Array(order.length + 1);
    this.edgeChar = new Uint8Array(order.length - 1);
    this.edgeTarget = new Int32Array(order.length - 1);
    this.wordCost = new Float32Array(order.length);
    let e = 0;
    order.forEach((node, k) => {
      this.edgeStart[k] = e;
      this.wordCost[k] = node.cost;
      for (const c of [...node.children.keys()].sort((a, b) => a - b)) {
        this.edgeChar[e] = c;
        this.edgeTarget[e++] = index.get(node.children.get(c)!)!;
      }
    });
    this.edgeStart[order.length] = e;
    this.firstLevel = Int32Array.from({ length: 26 }, (_, first) => this.child(0, first));
    this.secondLevel = Int32Array.from({ length: 26 * 26 }, (_, k) => {
      const node = this.firstLevel[Math.floor(k / 26)];
      return node < 0 ? -1 : this.child(node, k % 26);
    });
  }

  static load(path: string = DEFAULT_WORD_LIST_PATH): WordSegmenter {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      throw new Error(`word list: cannot read ${path}: ${(err as Error).message}`);
    }
    const words = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
    return new WordSegmenter(words, createHash('sha256').update(text).digest('hex'));
  }

  private child(node: number, c: number): number {
    const end = this.edgeStart[node + 1];
    for (let e = this.edgeStart[node]; e < end; e++) {
      const ch = this.edgeChar[e];
      if (ch === c) return this.edgeTarget[e];
      if (ch > c) return -1;
    }
    return -1;
  }

  /** The cheapest segmentation's numbers; labels longer than 64 characters are cut to their first 64. */
  segment(label: string, out?: Segmentation): Segmentation {
    const n = Math.min(label.length, MAX_LABEL);
    const best = this.best;
    const from = this.from;
    const isWord = this.isWord;
    const stepCost = this.stepCost;
    best[0] = 0;
    for (let i = 1; i <= n; i++) best[i] = Infinity;
    for (let i = 0; i < n; i++) {
      const base = best[i];
      const code = label.charCodeAt(i);
      const c = code - 97;
      const single = c >= 0 && c < 26 ? LETTER_BITS : code >= 48 && code <= 57 ? DIGIT_BITS : code === 45 || code === 95 ? SEPARATOR_BITS : OTHER_BITS;
      if (base + single < best[i + 1]) {
        best[i + 1] = base + single;
        from[i + 1] = i;
        isWord[i + 1] = 0;
        stepCost[i + 1] = single;
      }
      let node = 0;
      for (let j = i; j < n; j++) {
        const cj = label.charCodeAt(j) - 97;
        if (cj < 0 || cj >= 26) break;
        node = j === i ? this.firstLevel[cj] : j === i + 1 ? this.secondLevel[c * 26 + cj] : this.child(node, cj);
        if (node < 0) break;
        const cost = this.wordCost[node];
        if (cost > 0 && base + cost < best[j + 1]) {
          best[j + 1] = base + cost;
          from[j + 1] = i;
          isWord[j + 1] = 1;
          stepCost[j + 1] = cost;
        }
      }
    }
    let letters = 0;
    for (let i = 0; i < n; i++) {
      const c = label.charCodeAt(i) - 97;
      if (c >= 0 && c < 26) letters++;
    }
    let covered = 0;
    let words = 0;
    let maxWordBits = 0;
    let longest = 0;
    for (let end = n; end > 0; end = from[end]) {
      const length = end - from[end];
      if (isWord[end] === 1 && length >= MIN_FEATURE_WORD) {
        covered += length;
        words++;
        if (stepCost[end] > maxWordBits) maxWordBits = stepCost[end];
        if (length > longest) longest = length;
      }
    }
    const result = out ?? { bitsPerChar: 0, coverage: 0, words: 0, meanWordLength: 0, maxWordBits: 0, longestWord: 0 };
    result.bitsPerChar = n > 0 ? best[n] / n : 0;
    result.coverage = letters > 0 ? covered / letters : 0;
    result.words = words;
    result.meanWordLength = words > 0 ? covered / words : 0;
    result.maxWordBits = maxWordBits;
    result.longestWord = longest;
    return result;
  }

  /** The words of the cheapest path (for explanations), in order; characters outside words are left out. */
  words(label: string): string[] {
    this.segment(label);
    const n = Math.min(label.length, MAX_LABEL);
    const out: string[] = [];
    for (let end = n; end > 0; end = this.from[end]) if (this.isWord[end] === 1) out.push(label.slice(this.from[end], end));
    return out.reverse();
  }
}

let defaultSegmenter: WordSegmenter | undefined;

/** The committed word list (libs/detection-engine/data/dga/words.txt), loaded on first use. */
export function defaultWordSegmenter(): WordSegmenter {
  defaultSegmenter ??= WordSegmenter.load();
  return defaultSegmenter;
}
