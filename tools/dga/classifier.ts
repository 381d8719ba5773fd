/**
 * Weighted logistic regression over dense + sparse features plus a small tanh hidden layer over the raw
 * dense features (for the non-linear part: the same surprisal means more in a long label than in a short
 * one), trained with AdaGrad on shuffled single samples (L2 applied to the weights a sample touches).
 */
export interface TrainingRow {
  /** Standardised dense features, the input of the hidden layer. */
  raw: Float64Array;
  /** Expanded dense features of the linear part. */
  dense: Float64Array;
  sparseIndex: Int32Array;
  sparseValue: Float64Array;
  y: 0 | 1;
  weight: number;
}

export interface LrOptions {
  epochs: number;
  learningRate: number;
  l2Dense: number;
  l2Sparse: number;
  sparseSize: number;
  hiddenUnits: number;
  seed: number;
}

export interface LrWeights {
  bias: number;
  dense: Float64Array;
  sparse: Float64Array;
  /** hiddenUnits x rawSize, row-major. */
  hiddenIn: Float64Array;
  hiddenBias: Float64Array;
  hiddenOut: Float64Array;
}

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Logit of a row; fills `hidden` with the hidden activations. */
export function logit(w: LrWeights, row: Pick<TrainingRow, 'raw' | 'dense' | 'sparseIndex' | 'sparseValue'>, hidden: Float64Array): number {
  let z = w.bias;
  for (let i = 0; i < row.dense.length; i++) z += w.dense[i] * row.dense[i];
  for (let k = 0; k < row.sparseIndex.length; k++) z += w.sparse[row.sparseIndex[k]] * row.sparseValue[k];
  const d = row.raw.length;
  for (let h = 0; h < hidden.length; h++) {
    let a = w.hiddenBias[h];
    for (let i = 0; i < d; i++) a += w.hiddenIn[h * d + i] * row.raw[i];
    hidden[h] = Math.tanh(a);
    z += w.hiddenOut[h] * hidden[h];
  }
  return z;
}

export function trainLogisticRegression(rows: TrainingRow[], opts: LrOptions): LrWeights {
  const denseSize = rows[0].dense.length;
  const rawSize = rows[0].raw.length;
  const H = opts.hiddenUnits;
  const random = mulberry32(opts.seed);
  const w: LrWeights = {
    bias: 0,
    dense: new Float64Array(denseSize),
    sparse: new Float64Array(opts.sparseSize),
    hiddenIn: Float64Array.from({ length: H * rawSize }, () => (random() - 0.5) * (2 / Math.sqrt(rawSize))),
    hiddenBias: new Float64Array(H),
    hiddenOut: Float64Array.from({ length: H }, () => (random() - 0.5) * 0.2),
  };
  const gHiddenIn = new Float64Array(H * rawSize).fill(1e-8);
  const gHiddenBias = new Float64Array(H).fill(1e-8);
  const gHiddenOut = new Float64Array(H).fill(1e-8);
  const hidden = new Float64Array(H);
  const gBias = { v: 1e-8 };
  const gDense = new Float64Array(denseSize).fill(1e-8);
  const gSparse = new Float64Array(opts.sparseSize).fill(1e-8);
  const order = Array.from(rows.keys());
  const lr = opts.learningRate;
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    for (const r of order) {
      const row = rows[r];
      const z = logit(w, row, hidden);
      const p = 1 / (1 + Math.exp(-z));
      loss += row.weight * (row.y === 1 ? Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));
      const err = (p - row.y) * row.weight;
      gBias.v += err * err;
      w.bias -= (lr * err) / Math.sqrt(gBias.v);
      for (let i = 0; i < denseSize; i++) {
        const g = err * row.dense[i] + opts.l2Dense * w.dense[i];
        gDense[i] += g * g;
        w.dense[i] -= (lr * g) / Math.sqrt(gDense[i]);
      }
      for (let k = 0; k < row.sparseIndex.length; k++) {
        const b = row.sparseIndex[k];
        const g = err * row.sparseValue[k] + opts.l2Sparse * w.sparse[b];
        gSparse[b] += g * g;
        w.sparse[b] -= (lr * g) / Math.sqrt(gSparse[b]);
      }
      for (let h = 0; h < H; h++) {
        const gOut = err * hidden[h] + opts.l2Dense * w.hiddenOut[h];
        const gA = err * w.hiddenOut[h] * (1 - hidden[h] * hidden[h]);
        gHiddenOut[h] += gOut * gOut;
        w.hiddenOut[h] -= (lr * gOut) / Math.sqrt(gHiddenOut[h]);
        gHiddenBias[h] += gA * gA;
        w.hiddenBias[h] -= (lr * gA) / Math.sqrt(gHiddenBias[h]);
        for (let i = 0; i < rawSize; i++) {
          const k = h * rawSize + i;
          const g = gA * row.raw[i] + opts.l2Dense * w.hiddenIn[k];
          gHiddenIn[k] += g * g;
          w.hiddenIn[k] -= (lr * g) / Math.sqrt(gHiddenIn[k]);
        }
      }
    }
    process.stderr.write(`  epoch ${epoch + 1}/${opts.epochs}: weighted log-loss ${(loss / rows.reduce((s, r) => s + r.weight, 0)).toFixed(4)}\n`);
  }
  return w;
}
