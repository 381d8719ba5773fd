/**
 * Trains the DGA label network (the shape DgaModel scores): a logistic output over standardised dense
 * features and their pairwise products, a linear weight per token bucket, and a ReLU hidden layer over
 * [dense features, mean token embedding], with the embeddings learnt jointly. AdaGrad on shuffled single
 * samples; L2 applied to the parameters a sample touches. Token dropout leaves out a random share of a label's
 * tokens on each pass, so that the n-grams of one popular label cannot simply memorise it (without it the
 * network learns its benign training labels by heart and ranks unseen popular names badly). Optional
 * hard-negative mining: a benign row scored >= 0.5 when visited has its weight raised for later passes.
 */
export interface TrainingRow {
  /** Standardised dense features. */
  dense: Float64Array;
  /** Token buckets (repeats repeat). */
  tokens: Int32Array;
  y: 0 | 1;
  weight: number;
}

export interface NetOptions {
  epochs: number;
  learningRate: number;
  l2: number;
  buckets: number;
  embeddingDim: number;
  hiddenUnits: number;
  seed: number;
  /** Factor applied to the weight of a benign row scored >= 0.5 at the end of an epoch (1: off). */
  hardNegativeBoost: number;
  /** Upper bound of a boosted benign row's weight, as a multiple of its initial weight. */
  hardNegativeCap: number;
  /** Probability that a token is left out of a training pass (so no single n-gram memorises a label). */
  tokenDropout: number;
  /** Whether the pairwise products of the dense features get weights (off: they stay 0, training is ~2x faster). */
  pairwise: boolean;
  log?: (line: string) => void;
}

export interface NetWeights {
  bias: number;
  dense: Float64Array;
  /** Linear weights of the pairwise products d[i] * d[j] / 4 (i <= j) of the standardised dense features. */
  pairs: Float64Array;
  tokens: Float64Array;
  /** buckets x embeddingDim, row-major. */
  embeddings: Float64Array;
  /** hiddenUnits x (denseSize + embeddingDim), row-major. */
  hiddenIn: Float64Array;
  hiddenBias: Float64Array;
  hiddenOut: Float64Array;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Forward pass: fills `x` (network input) and `pre` (hidden pre-activations); returns the logit. */
export function forward(w: NetWeights, row: Pick<TrainingRow, 'dense' | 'tokens'>, dim: number, x: Float64Array, pre: Float64Array, pairwise = true): number {
  const d = row.dense.length;
  let z = w.bias;
  let k = 0;
  for (let i = 0; i < d; i++) {
    const di = row.dense[i];
    x[i] = di;
    z += w.dense[i] * di;
    if (pairwise) for (let j = i; j < d; j++) z += (w.pairs[k++] * di * row.dense[j]) / 4;
  }
  for (let e = 0; e < dim; e++) x[d + e] = 0;
  const norm = 1 / Math.sqrt(row.tokens.length);
  for (let t = 0; t < row.tokens.length; t++) {
    const b = row.tokens[t];
    z += w.tokens[b] * norm;
    const base = b * dim;
    for (let e = 0; e < dim; e++) x[d + e] += w.embeddings[base + e];
  }
  for (let e = 0; e < dim; e++) x[d + e] *= norm;
  const n = x.length;
  for (let h = 0; h < pre.length; h++) {
    let a = w.hiddenBias[h];
    const row0 = h * n;
    for (let i = 0; i < n; i++) a += w.hiddenIn[row0 + i] * x[i];
    pre[h] = a;
    if (a > 0) z += w.hiddenOut[h] * a;
  }
  return z;
}

export function trainNetwork(rows: TrainingRow[], opts: NetOptions): NetWeights {
  const d = rows[0].dense.length;
  const dim = opts.embeddingDim;
  const H = opts.hiddenUnits;
  const n = d + dim;
  const random = mulberry32(opts.seed);
  const w: NetWeights = {
    bias: 0,
    dense: new Float64Array(d),
    pairs: new Float64Array((d * (d + 1)) / 2),
    tokens: new Float64Array(opts.buckets),
    embeddings: Float64Array.from({ length: opts.buckets * dim }, () => (random() - 0.5) * 0.2),
    hiddenIn: Float64Array.from({ length: H * n }, () => (random() - 0.5) * (2 * Math.sqrt(3 / n))),
    hiddenBias: Float64Array.from({ length: H }, () => 0.1),
    hiddenOut: Float64Array.from({ length: H }, () => (random() - 0.5) * 0.2),
  };
  const eps = 1e-8;
  const g = {
    bias: eps,
    dense: new Float64Array(d).fill(eps),
    pairs: new Float64Array((d * (d + 1)) / 2).fill(eps),
    tokens: new Float64Array(opts.buckets).fill(eps),
    embeddings: new Float64Array(opts.buckets * dim).fill(eps),
    hiddenIn: new Float64Array(H * n).fill(eps),
    hiddenBias: new Float64Array(H).fill(eps),
    hiddenOut: new Float64Array(H).fill(eps),
  };
  const x = new Float64Array(n);
  const pre = new Float64Array(H);
  const gradA = new Float64Array(H);
  const gradEmbedding = new Float64Array(dim);
  const initialWeight = rows.map((r) => r.weight);
  const keptTokens = new Int32Array(rows.reduce((m, r) => Math.max(m, r.tokens.length), 1));
  const order = Array.from(rows.keys());
  const lr = opts.learningRate;
  const l2 = opts.l2;
  const step = (params: Float64Array, acc: Float64Array, i: number, grad: number): void => {
    const gr = grad + l2 * params[i];
    acc[i] += gr * gr;
    params[i] -= (lr * gr) / Math.sqrt(acc[i]);
  };
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    let loss = 0;
    let totalWeight = 0;
    let boosted = 0;
    for (const r of order) {
      const full = rows[r];
      let row: TrainingRow = full;
      if (opts.tokenDropout > 0) {
        let kept = 0;
        for (let t = 0; t < full.tokens.length; t++) if (random() >= opts.tokenDropout) keptTokens[kept++] = full.tokens[t];
        if (kept === 0) keptTokens[kept++] = full.tokens[0];
        row = { ...full, tokens: keptTokens.subarray(0, kept) };
      }
      const z = forward(w, row, dim, x, pre, opts.pairwise);
      const p = 1 / (1 + Math.exp(-z));
      loss += row.weight * (row.y === 1 ? Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z)));
      totalWeight += row.weight;
      const err = (p - row.y) * row.weight;
      if (row.y === 0 && p >= 0.5 && opts.hardNegativeBoost > 1) {
        const next = Math.min(row.weight * opts.hardNegativeBoost, initialWeight[r] * opts.hardNegativeCap);
        if (next > row.weight) boosted++;
        full.weight = next;
      }

      g.bias += err * err;
      w.bias -= (lr * err) / Math.sqrt(g.bias);
      let pair = 0;
      for (let i = 0; i < d; i++) {
        step(w.dense, g.dense, i, err * row.dense[i]);
        if (opts.pairwise) for (let j = i; j < d; j++) step(w.pairs, g.pairs, pair++, (err * row.dense[i] * row.dense[j]) / 4);
      }
      gradEmbedding.fill(0);
      for (let h = 0; h < H; h++) {
        const active = pre[h] > 0;
        gradA[h] = active ? err * w.hiddenOut[h] : 0;
        step(w.hiddenOut, g.hiddenOut, h, active ? err * pre[h] : 0);
        if (!active) continue;
        const ga = gradA[h];
        const row0 = h * n;
        for (let k = 0; k < dim; k++) gradEmbedding[k] += ga * w.hiddenIn[row0 + d + k];
        for (let i = 0; i < n; i++) step(w.hiddenIn, g.hiddenIn, row0 + i, ga * x[i]);
        step(w.hiddenBias, g.hiddenBias, h, ga);
      }
      const norm = 1 / Math.sqrt(row.tokens.length);
      for (let t = 0; t < row.tokens.length; t++) {
        const b = row.tokens[t];
        step(w.tokens, g.tokens, b, err * norm);
        const base = b * dim;
        for (let k = 0; k < dim; k++) step(w.embeddings, g.embeddings, base + k, gradEmbedding[k] * norm);
      }
    }
    opts.log?.(`  epoch ${epoch + 1}/${opts.epochs}: weighted log-loss ${(loss / totalWeight).toFixed(4)}, hard negatives boosted ${boosted}`);
  }
  return w;
}
