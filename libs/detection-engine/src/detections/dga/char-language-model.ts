/**
 * A character trigram language model of domain labels: the surprisal (-log2 p, in bits) of each character
 * given the two before it, with a boundary symbol before the first and after the last character. Trained on
 * popular (benign) labels, it says how unlike names people choose a label is.
 */

/** The characters a registrable label may hold; anything else is scored as `_`. */
export const LABEL_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789-_';
/** The symbol before a label's first character and after its last. */
export const BOUNDARY = LABEL_ALPHABET.length;
export const SYMBOLS = LABEL_ALPHABET.length + 1;
const OTHER = LABEL_ALPHABET.indexOf('_');
/** Surprisals are stored in steps of 1/8 bit, capped at 255 steps (about 32 bits). */
export const SURPRISAL_STEP_BITS = 0.125;
const MAX_STEPS = 255;

/** Symbol of every UTF-16 code below 128; OTHER for the rest. */
const SYMBOL_OF_CODE = Int8Array.from({ length: 128 }, (_, code) => {
  const i = LABEL_ALPHABET.indexOf(String.fromCharCode(code));
  return i >= 0 ? i : OTHER;
});

export function symbolOf(code: number): number {
  return code < 128 ? SYMBOL_OF_CODE[code] : OTHER;
}

export function symbolsOf(label: string): number[] {
  const out = new Array<number>(label.length);
  for (let i = 0; i < label.length; i++) out[i] = symbolOf(label.charCodeAt(i));
  return out;
}

export class CharLanguageModel {
  /** Quantised surprisal of symbol c after context (a, b), at index (a * SYMBOLS + b) * SYMBOLS + c. */
  constructor(readonly table: Uint8Array) {
    if (table.length !== SYMBOLS ** 3) {
      throw new Error(`char language model: expected ${SYMBOLS ** 3} entries, got ${table.length}`);
    }
  }

  /**
   * Interpolated trigram estimate (each order backs off to the lower one in proportion to `backoff`), so
   * that unseen but plausible transitions are not scored as impossible.
   */
  static train(labels: Iterable<string>, backoff = 4): CharLanguageModel {
    const uni = new Float64Array(SYMBOLS);
    const bi = new Float64Array(SYMBOLS ** 2);
    const tri = new Float64Array(SYMBOLS ** 3);
    for (const label of labels) {
      const s = [BOUNDARY, BOUNDARY, ...symbolsOf(label), BOUNDARY];
      for (let i = 2; i < s.length; i++) {
        uni[s[i]]++;
        bi[s[i - 1] * SYMBOLS + s[i]]++;
        tri[(s[i - 2] * SYMBOLS + s[i - 1]) * SYMBOLS + s[i]]++;
      }
    }
    const total = uni.reduce((a, b) => a + b, 0);
    const p1 = Array.from(uni, (n) => (n + 1) / (total + SYMBOLS));
    const ctx1 = new Float64Array(SYMBOLS);
    for (let b = 0; b < SYMBOLS; b++) for (let c = 0; c < SYMBOLS; c++) ctx1[b] += bi[b * SYMBOLS + c];
    const p2 = new Float64Array(SYMBOLS ** 2);
    for (let b = 0; b < SYMBOLS; b++) {
      for (let c = 0; c < SYMBOLS; c++) p2[b * SYMBOLS + c] = (bi[b * SYMBOLS + c] + backoff * p1[c]) / (ctx1[b] + backoff);
    }
    const table = new Uint8Array(SYMBOLS ** 3);
    for (let a = 0; a < SYMBOLS; a++) {
      for (let b = 0; b < SYMBOLS; b++) {
        const base = (a * SYMBOLS + b) * SYMBOLS;
        let ctx = 0;
        for (let c = 0; c < SYMBOLS; c++) ctx += tri[base + c];
        for (let c = 0; c < SYMBOLS; c++) {
          const p = (tri[base + c] + backoff * p2[b * SYMBOLS + c]) / (ctx + backoff);
          table[base + c] = Math.min(MAX_STEPS, Math.round(-Math.log2(p) / SURPRISAL_STEP_BITS));
        }
      }
    }
    return new CharLanguageModel(table);
  }

  /** Surprisal in bits of every character of `label` and of its end, in order. */
  surprisals(label: string): number[] {
    const out = new Float64Array(label.length + 1);
    this.surprisalsInto(label, out);
    return Array.from(out);
  }

  /** As {@link surprisals}, written into `out` (length >= label.length + 1) without allocating. */
  surprisalsInto(label: string, out: Float64Array): void {
    let a = BOUNDARY;
    let b = BOUNDARY;
    for (let i = 0; i <= label.length; i++) {
      const c = i < label.length ? symbolOf(label.charCodeAt(i)) : BOUNDARY;
      out[i] = this.table[(a * SYMBOLS + b) * SYMBOLS + c] * SURPRISAL_STEP_BITS;
      a = b;
      b = c;
    }
  }
}
