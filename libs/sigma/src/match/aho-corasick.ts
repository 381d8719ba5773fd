/**
 * Aho-Corasick automaton over UTF-16 code units: finds, in one pass over a text, which of many
 * literals occur in it. Built once per rule set; `scan` costs O(text length + matches).
 */
export class AhoCorasick {
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  /** Literal ids ending at each state, including those reached through failure links. */
  private readonly outputs: number[][] = [[]];

  constructor(literals: readonly string[]) {
    literals.forEach((literal, id) => {
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const c = literal.charCodeAt(i);
        let to = this.next[state].get(c);
        if (to === undefined) {
          to = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.outputs.push([]);
          this.next[state].set(c, to);
        }
        state = to;
      }
      this.outputs[state].push(id);
    });
    this.link();
  }

  private link(): void {
    const queue: number[] = [];
    for (const to of this.next[0].values()) queue.push(to);
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (const [c, to] of this.next[state]) {
        let f = this.fail[state];
        while (f !== 0 && !this.next[f].has(c)) f = this.fail[f];
        const target = this.next[f].get(c);
        this.fail[to] = target !== undefined && target !== to ? target : 0;
        if (this.outputs[this.fail[to]].length) this.outputs[to] = this.outputs[to].concat(this.outputs[this.fail[to]]);
        queue.push(to);
      }
    }
  }

  /** Calls `found` with the id of every literal occurrence in `text` (an id may repeat). */
  scan(text: string, found: (id: number) => void): void {
    let state = 0;
    const { next, fail, outputs } = this;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let to = next[state].get(c);
      while (to === undefined && state !== 0) {
        state = fail[state];
        to = next[state].get(c);
      }
      state = to ?? 0;
      const out = outputs[state];
      for (let k = 0; k < out.length; k++) found(out[k]);
    }
  }
}
