/** Called for each literal occurrence: the literal's id and the index of its last character in the text. */
export type LiteralFound = (id: number, end: number) => void;

export interface AhoCorasickOptions {
  /** A-Z and a-z share their classes (literals are taken lower-cased): ASCII text is scanned as sent. */
  foldAsciiCase?: boolean;
  /**
   * Literals that matter only at the ends of a text (whole values, prefixes, suffixes): scans do not
   * report them; `walkPrefixes` and `suffixesAt` find them at the ends instead, so short anchored
   * literals ('m', '=') cost nothing in the middle of a text.
   */
  quiet?: ReadonlySet<number>;
}

/**
 * Aho-Corasick automaton over UTF-16 code units: finds, in one pass over a text, which of many
 * literals occur in it. Built once per rule set as a complete DFA in flat typed arrays: characters
 * are mapped to a small alphabet (those occurring in some literal, plus "any other"), so a step is
 * one class lookup and one array read, with no failure-link chasing at scan time.
 *
 * Scans are resumable: they take and return an "entry" (the automaton's position), so a text can
 * be scanned in segments and the state read at segment ends (`suffixesAt`).
 */
export class AhoCorasick {
  /** Alphabet class of each ASCII code unit; 0 = a character no literal contains. */
  private readonly asciiClass = new Uint16Array(128);
  private readonly otherClass = new Map<number, number>();
  /** log2 of the row width: the alphabet is padded to a power of two so a state is a shift of its row. */
  private readonly shift: number;
  /**
   * delta[row + class] → the next state's row, times two, plus 1 when reported literals end there
   * (row = state << shift). Pre-multiplied so a step is one addition and one load.
   */
  private readonly delta: Int32Array;
  /** Reported literal ids ending at state s (failure-link outputs included): outIds[outStart[s] .. outStart[s + 1]). */
  private readonly outStart: Int32Array;
  private readonly outIds: Int32Array;
  /** Quiet literal ids ending at state s (failure-link outputs included), for suffix checks. */
  private readonly quietStart: Int32Array;
  private readonly quietIds: Int32Array;
  /** The quiet literal spelled by the path to state s, or -1; and the state's depth in the trie. */
  private readonly quietOwn: Int32Array;
  private readonly depth: Int32Array;
  /** Length of the longest quiet literal: prefix walks stop there. */
  private readonly longestQuiet: number;

  constructor(literals: readonly string[], options: AhoCorasickOptions = {}) {
    const fold = options.foldAsciiCase === true;
    const quiet = options.quiet ?? new Set<number>();
    let classes = 1;
    const classOf = (c: number): number => {
      if (fold && c >= 65 && c <= 90) c += 32;
      if (c < 128) return this.asciiClass[c] || (this.asciiClass[c] = classes++);
      let k = this.otherClass.get(c);
      if (k === undefined) this.otherClass.set(c, (k = classes++));
      return k;
    };
    // Trie with temporary sparse edges; turned into the dense table below.
    const edges: Array<Map<number, number>> = [new Map()];
    const ends: number[][] = [[]];
    const quietEnds: number[][] = [[]];
    const depths: number[] = [0];
    const own: number[] = [-1];
    literals.forEach((literal, id) => {
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const k = classOf(literal.charCodeAt(i));
        let to = edges[state].get(k);
        if (to === undefined) {
          to = edges.length;
          edges.push(new Map());
          ends.push([]);
          quietEnds.push([]);
          depths.push(i + 1);
          own.push(-1);
          edges[state].set(k, to);
        }
        state = to;
      }
      if (quiet.has(id)) {
        quietEnds[state].push(id);
        own[state] = id;
      } else ends[state].push(id);
    });
    let shift = 0;
    while (1 << shift < classes) shift++;
    this.shift = shift;
    classes = 1 << shift;
    if (fold) for (let c = 65; c <= 90; c++) this.asciiClass[c] = this.asciiClass[c + 32];
    const states = edges.length;
    if (states * classes * 4 > 0x7fffffff) throw new Error('literal set too large for the pre-filter automaton');
    const delta = new Int32Array(states * classes);
    const fail = new Int32Array(states);
    // Breadth-first: a state's failure target is complete before the state is filled in.
    const queue: number[] = [];
    for (let k = 0; k < classes; k++) {
      const to = edges[0].get(k);
      if (to !== undefined) {
        delta[k] = to;
        queue.push(to);
      }
    }
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      const f = fail[state];
      if (ends[f].length) ends[state] = ends[state].concat(ends[f]);
      if (quietEnds[f].length) quietEnds[state] = quietEnds[state].concat(quietEnds[f]);
      const row = state * classes;
      const failRow = f * classes;
      for (let k = 0; k < classes; k++) {
        const to = edges[state].get(k);
        if (to === undefined) delta[row + k] = delta[failRow + k];
        else {
          delta[row + k] = to;
          fail[to] = delta[failRow + k];
          queue.push(to);
        }
      }
    }
    for (let i = 0; i < delta.length; i++) {
      const to = delta[i];
      delta[i] = ((to << shift) << 1) | (ends[to].length ? 1 : 0);
    }
    this.delta = delta;
    [this.outStart, this.outIds] = flatten(ends);
    [this.quietStart, this.quietIds] = flatten(quietEnds);
    this.quietOwn = Int32Array.from(own);
    this.depth = Int32Array.from(depths);
    this.longestQuiet = literals.reduce((longest, literal, id) => (quiet.has(id) ? Math.max(longest, literal.length) : longest), 0);
  }

  /** Number of automaton states (for sizing and tests). */
  get states(): number {
    return this.depth.length;
  }

  /** Calls `found` with the id and end of every reported literal occurrence in `text` (an id may repeat). */
  scan(text: string, found: LiteralFound): void {
    this.scanFrom(text, 0, text.length, 0, found);
  }

  /** Scans text[from, to) from `entry` (0 = the start state); returns the entry reached. */
  scanFrom(text: string, from: number, to: number, entry: number, found: LiteralFound): number {
    const { asciiClass, otherClass, delta } = this;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      entry = delta[(entry >> 1) + (c < 128 ? asciiClass[c] : (otherClass.get(c) ?? 0))];
      if (entry & 1) this.report(entry, i, found);
    }
    return entry;
  }

  /**
   * Like `scanFrom`, but stops at the first non-ASCII code unit, returning -1 - its index (the
   * caller then scans the text's lower-cased form instead).
   */
  scanAsciiFrom(text: string, from: number, to: number, entry: number, found: LiteralFound): number {
    const { asciiClass, delta } = this;
    for (let i = from; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c >= 128) return -1 - i;
      entry = delta[(entry >> 1) + asciiClass[c]];
      if (entry & 1) this.report(entry, i, found);
    }
    return entry;
  }

  private report(entry: number, end: number, found: LiteralFound): void {
    const state = entry >> (this.shift + 1);
    const last = this.outStart[state + 1];
    for (let o = this.outStart[state]; o < last; o++) found(this.outIds[o], end);
  }

  /** Calls `found` with every quiet literal that ends the text scanned so far (entry from a scan). */
  suffixesAt(entry: number, end: number, found: LiteralFound): void {
    const state = entry >> (this.shift + 1);
    const last = this.quietStart[state + 1];
    for (let o = this.quietStart[state]; o < last; o++) found(this.quietIds[o], end);
  }

  /**
   * Calls `found` with every quiet literal text[from, to) starts with. Follows trie edges only and
   * stops at the longest quiet literal, so it takes a step or two on most texts.
   */
  walkPrefixes(text: string, from: number, to: number, found: LiteralFound): void {
    const { asciiClass, otherClass, delta, shift, depth, quietOwn } = this;
    const stop = Math.min(to, from + this.longestQuiet);
    let row = 0;
    for (let i = from; i < stop; i++) {
      const c = text.charCodeAt(i);
      const next = delta[row + (c < 128 ? asciiClass[c] : (otherClass.get(c) ?? 0))] >> 1;
      const state = next >> shift;
      if (depth[state] !== i - from + 1) return;
      if (quietOwn[state] !== -1) found(quietOwn[state], i);
      row = next;
    }
  }
}

function flatten(lists: number[][]): [Int32Array, Int32Array] {
  const start = new Int32Array(lists.length + 1);
  let total = 0;
  for (let s = 0; s < lists.length; s++) {
    start[s] = total;
    total += lists[s].length;
  }
  start[lists.length] = total;
  const ids = new Int32Array(total);
  for (let s = 0; s < lists.length; s++) ids.set(lists[s], start[s]);
  return [start, ids];
}
