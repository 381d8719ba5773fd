/**
 * Inference of the DGA model's character CNN (trained by tools/dga/cnn/train_cnn.py): the characters of
 * `^label$` -> one convolution per kernel width -> ReLU -> max over positions; the pooled filters and the
 * standardised dense features -> a ReLU layer -> one logit.
 *
 * The embedding is folded into the convolutions when the weights are exported: for every width, kernel offset
 * and character there is one row of filter contributions, so a convolution output is a sum of table rows.
 * Positions past the label are padding, whose rows are zero: a window that lies wholly in the padding outputs
 * the filter bias alone, exactly as the training network computes it.
 */

/** The CNN part of a `vigil-dga-cnn/1` model file; float arrays are little-endian float32, base64. */
export interface CharCnnWeights {
  /** Characters with their own row, in row order after the padding, start, end and unknown rows. */
  alphabet: string;
  /** Labels are cut to this many characters (then without the end mark). */
  maxLabel: number;
  widths: number[];
  filters: number;
  /** Per width w: w x (4 + alphabet length) x filters, the widths one after another. */
  tables: string;
  /** widths.length x filters. */
  convBias: string;
  /** Number of dense features after the pooled filters. */
  denseInputs: number;
  /** One row of (widths.length x filters + denseInputs) weights per hidden unit. */
  hidden: string;
  hiddenBias: string;
  out: string;
  outBias: number;
  /** Names with the logit the training script computed for them (a test compares them with this code). */
  reference?: { label: string; logit: number }[];
  settings?: Record<string, unknown>;
  versions?: Record<string, string>;
}

const START = 1;
const END = 2;
const UNKNOWN = 3;

/** Float32 values widened to float64 once, so that the hot loops do no conversions. */
function floats(base64: string, expected: number, what: string): Float64Array {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.byteLength !== expected * 4) throw new Error(`DGA model: cnn.${what} must hold ${expected} float32 values`);
  const out = new Float64Array(expected);
  for (let i = 0; i < expected; i++) out[i] = bytes.readFloatLE(i * 4);
  return out;
}

export class CharCnn {
  private readonly charIds = new Int32Array(128).fill(UNKNOWN);
  private readonly vocab: number;
  private readonly maxLength: number;
  private readonly widths: Int32Array;
  /**
   * The tables of all widths merged per kernel offset k: row (k, c) holds, for the widths longer than k (a
   * suffix of the ascending widths), their filters' contributions of character c at offset k. A window start's
   * outputs for every width are then the bias plus one merged row per offset.
   */
  private readonly merged: Float32Array;
  /** Start of offset k's rows in `merged`, and where in the pooled filters its rows begin. */
  private readonly mergedAt: Int32Array;
  private readonly mergedFrom: Int32Array;
  private readonly maxWidth: number;
  private readonly convBias: Float64Array;
  /** The hidden layer's weights column-major: all units' weights of input i at i * units. */
  private readonly columns: Float64Array;
  private readonly units: number;
  private readonly unitSums: Float64Array;
  private readonly hiddenBias: Float64Array;
  private readonly out: Float64Array;
  private readonly outBias: number;
  private readonly filters: number;
  private readonly inputs: number;
  readonly denseInputs: number;
  private readonly ids: Int32Array;
  private readonly x: Float64Array;
  private readonly acc: Float64Array;

  constructor(readonly weights: CharCnnWeights) {
    const w = weights;
    if (typeof w.alphabet !== 'string' || !Number.isInteger(w.maxLabel) || w.maxLabel < 1) throw new Error('DGA model: cnn.alphabet and cnn.maxLabel required');
    if (!Array.isArray(w.widths) || w.widths.length === 0 || w.widths.some((k) => !Number.isInteger(k) || k < 1 || k > w.maxLabel)) throw new Error('DGA model: cnn.widths invalid');
    if (!Number.isInteger(w.filters) || w.filters < 1 || !Number.isInteger(w.denseInputs) || w.denseInputs < 0) throw new Error('DGA model: cnn.filters and cnn.denseInputs must be integers');
    for (let i = 0; i < w.alphabet.length; i++) this.charIds[w.alphabet.charCodeAt(i) & 127] = 4 + i;
    this.vocab = 4 + w.alphabet.length;
    this.maxLength = w.maxLabel + 2;
    this.widths = Int32Array.from(w.widths);
    this.filters = w.filters;
    if (w.widths.some((k, i) => i > 0 && k <= w.widths[i - 1])) throw new Error('DGA model: cnn.widths must ascend');
    const offsets: number[] = [];
    let size = 0;
    for (const k of w.widths) {
      offsets.push(size);
      size += k * this.vocab * w.filters;
    }
    const tables = floats(w.tables, size, 'tables');
    const conv = w.widths.length * w.filters;
    this.maxWidth = w.widths[w.widths.length - 1];
    this.mergedAt = new Int32Array(this.maxWidth);
    this.mergedFrom = new Int32Array(this.maxWidth);
    let mergedSize = 0;
    for (let k = 0; k < this.maxWidth; k++) {
      this.mergedAt[k] = mergedSize;
      this.mergedFrom[k] = w.widths.filter((width) => width <= k).length * w.filters;
      mergedSize += this.vocab * (conv - this.mergedFrom[k]);
    }
    this.merged = new Float32Array(mergedSize);
    for (let k = 0; k < this.maxWidth; k++) {
      const rowLength = conv - this.mergedFrom[k];
      for (let c = 0; c < this.vocab; c++) {
        let at = this.mergedAt[k] + c * rowLength;
        w.widths.forEach((width, wi) => {
          if (width <= k) return;
          const from = offsets[wi] + (k * this.vocab + c) * w.filters;
          for (let f = 0; f < w.filters; f++) this.merged[at++] = tables[from + f];
        });
      }
    }
    this.convBias = floats(w.convBias, w.widths.length * w.filters, 'convBias');
    this.denseInputs = w.denseInputs;
    this.inputs = w.widths.length * w.filters + w.denseInputs;
    const units = Buffer.from(w.hiddenBias, 'base64').byteLength / 4;
    this.hiddenBias = floats(w.hiddenBias, units, 'hiddenBias');
    const hidden = floats(w.hidden, units * this.inputs, 'hidden');
    this.units = units;
    this.columns = new Float64Array(hidden.length);
    for (let h = 0; h < units; h++) for (let i = 0; i < this.inputs; i++) this.columns[i * units + h] = hidden[h * this.inputs + i];
    this.unitSums = new Float64Array(units);
    this.out = floats(w.out, units, 'out');
    this.outBias = w.outBias;
    this.ids = new Int32Array(this.maxLength);
    this.x = new Float64Array(this.inputs);
    this.acc = new Float64Array(conv);
  }

  /** The logit of a label whose standardised dense features are `dense` (at least `denseInputs` values). */
  logit(label: string, dense: Float64Array): number {
    // Locals only inside the loops: this runs for every unranked name the engine sees.
    const ids = this.ids;
    const maxLabel = this.weights.maxLabel;
    const cut = label.length > maxLabel ? maxLabel : label.length;
    const charIds = this.charIds;
    ids[0] = START;
    for (let i = 0; i < cut; i++) {
      const code = label.charCodeAt(i);
      ids[i + 1] = code < 128 ? charIds[code] : UNKNOWN;
    }
    let n = cut + 1;
    if (cut === label.length) ids[n++] = END;

    const x = this.x;
    const acc = this.acc;
    const merged = this.merged;
    const mergedAt = this.mergedAt;
    const mergedFrom = this.mergedFrom;
    const convBias = this.convBias;
    const filters = this.filters;
    const widths = this.widths;
    const maxLength = this.maxLength;
    const maxWidth = this.maxWidth;
    const conv = widths.length * filters;
    // Windows wholly in the padding (when the label leaves room for one) output the bias; ReLU floors at 0.
    for (let wi = 0, i = 0; wi < widths.length; wi++) {
      const padded = maxLength - widths[wi] >= n;
      for (let f = 0; f < filters; f++, i++) x[i] = padded && convBias[i] > 0 ? convBias[i] : 0;
    }
    for (let p = 0; p < n; p++) {
      // Offset 0 belongs to every width: its row starts the sums.
      const first = ids[p] * conv;
      for (let i = 0; i < conv; i++) acc[i] = convBias[i] + merged[first + i];
      const span = n - p < maxWidth ? n - p : maxWidth;
      for (let k = 1; k < span; k++) {
        const from = mergedFrom[k];
        const length = conv - from;
        const row = mergedAt[k] + ids[p + k] * length - from;
        for (let i = from; i < conv; i++) acc[i] += merged[row + i];
      }
      // Widths whose window no longer fits the padded length at p end the pooling early (a prefix: ascending).
      let valid = conv;
      if (p > maxLength - maxWidth) {
        let wi = widths.length;
        while (wi > 0 && p > maxLength - widths[wi - 1]) wi--;
        valid = wi * filters;
      }
      for (let i = 0; i < valid; i++) if (acc[i] > x[i]) x[i] = acc[i];
    }
    const denseInputs = this.denseInputs;
    for (let i = 0; i < denseInputs; i++) x[conv + i] = dense[i];

    // Column by column, skipping the inputs ReLU left at zero (many of the pooled filters).
    const columns = this.columns;
    const units = this.units;
    const a = this.unitSums;
    for (let h = 0; h < units; h++) a[h] = this.hiddenBias[h];
    const inputs = this.inputs;
    for (let i = 0; i < inputs; i++) {
      const v = x[i];
      if (v === 0) continue;
      const col = i * units;
      for (let h = 0; h < units; h++) a[h] += columns[col + h] * v;
    }
    const out = this.out;
    let z = this.outBias;
    for (let h = 0; h < units; h++) if (a[h] > 0) z += out[h] * a[h];
    return z;
  }
}
