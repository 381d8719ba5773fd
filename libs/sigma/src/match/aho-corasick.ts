/**
 * Aho-Corasick automaton over UTF-16 code units: finds, in one pass over a text, which of many
 * literals occur in it. Built once per rule set as a complete DFA in flat typed arrays: characters
 * are mapped to a small alphabet (those occurring in some literal, plus "any other"), so a step is
 * one class lookup and one array read, with no failure-link chasing at scan time.
 */
export class AhoCorasick {
  /** Alphabet class of each ASCII code unit; 0 = a character no literal contains. */
  private readonly asciiClass = new Uint8Array(128);
  private readonly otherClass = new Map<number, number>();
  private readonly classes: number;
  /**
   * delta[row + class] → the next state's row, times two, plus 1 when literals end there
   * (row = state * classes). Pre-multiplied so a step is one addition and one load.
   */
  private readonly delta: Int32Array;
  /** Literal ids ending at state s (failure-link outputs included): outIds[outStart[s] .. outStart[s + 1]). */
  private readonly outStart: Int32Array;
  private readonly outIds: Int32Array;

  constructor(literals: readonly string[]) {
    let classes = 1;
    const classOf = (c: number): number => {
      if (c < 128) return this.asciiClass[c] || (this.asciiClass[c] = classes++);
      let k = this.otherClass.get(c);
      if (k === undefined) this.otherClass.set(c, (k = classes++));
      return k;
    };
    // Trie with temporary sparse edges; turned into the dense table below.
    const edges: Array<Map<number, number>> = [new Map()];
    const ends: number[][] = [[]];
    literals.forEach((literal, id) => {
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const k = classOf(literal.charCodeAt(i));
        let to = edges[state].get(k);
        if (to === undefined) {
          to = edges.length;
          edges.push(new Map());
          ends.push([]);
          edges[state].set(k, to);
        }
        state = to;
      }
      ends[state].push(id);
    });
    this.classes = classes;
    const states = edges.length;
    const delta = new Int32Array(states * classes);
    const fail = new Int32Array(states);
    const outputs: number[][] = ends;
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
      if (outputs[f].length) outputs[state] = outputs[state].concat(outputs[f]);
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
    if (states * classes * 2 > 0x7fffffff) throw new Error('literal set too large for the pre-filter automaton');
    for (let i = 0; i < delta.length; i++) {
      const to = delta[i];
      delta[i] = ((to * classes) << 1) | (outputs[to].length ? 1 : 0);
    }
    this.delta = delta;
    this.outStart = new Int32Array(states + 1);
    let total = 0;
    for (let s = 0; s < states; s++) {
      this.outStart[s] = total;
      total += outputs[s].length;
    }
    this.outStart[states] = total;
    this.outIds = new Int32Array(total);
    for (let s = 0; s < states; s++) this.outIds.set(outputs[s], this.outStart[s]);
  }

  /** Calls `found` with the id of every literal occurrence in `text` (an id may repeat). */
  scan(text: string, found: (id: number) => void): void {
    const { asciiClass, otherClass, classes, delta, outStart, outIds } = this;
    let entry = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      entry = delta[(entry >> 1) + (c < 128 ? asciiClass[c] : (otherClass.get(c) ?? 0))];
      if (entry & 1) {
        const state = ((entry >> 1) / classes) | 0;
        const end = outStart[state + 1];
        for (let o = outStart[state]; o < end; o++) found(outIds[o]);
      }
    }
  }
}
