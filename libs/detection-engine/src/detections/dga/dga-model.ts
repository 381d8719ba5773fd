import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CharCnn, type CharCnnWeights } from './char-cnn';
import { CharLanguageModel } from './char-language-model';
import { DENSE_FEATURE_COUNT, DENSE_FEATURE_NAMES, denseFeatures, labelTokens, type TokenScheme } from './label-features';
import { defaultWordSegmenter, type WordSegmenter } from './word-segmenter';

/**
 * How benign labels look, measured on the validation split of the rankings when the model is trained: what the
 * per-host decision (dga_volume) compares a host's never-seen domains with.
 */
export interface BenignProfile {
  /**
   * The benign score tail: `tail[i]` is the share of validation labels scoring at least `scores[i]` (scores
   * ascending). A name's tail share is how unusual its score would be for a benign name.
   */
  scores: number[];
  tail: number[];
  /** Share of validation labels of each length 1..64 (index 0: length 1); lengths over 64 count as 64. */
  lengths: number[];
  /** Share of validation labels in each character class (see `charClassOf`). */
  charClasses: Record<LabelCharClass, number>;
  /** Number of validation labels measured. */
  labels: number;
}

export type LabelCharClass = 'letters' | 'letters_digits' | 'digits' | 'hyphenated';
export const LABEL_CHAR_CLASSES: readonly LabelCharClass[] = ['letters', 'letters_digits', 'digits', 'hyphenated'];

/** The character class of a label: hyphen or underscore present, else letters only, digits only, or both. */
export function charClassOf(label: string): LabelCharClass {
  let letters = false;
  let digits = false;
  for (let i = 0; i < label.length; i++) {
    const c = label.charCodeAt(i);
    if (c === 45 || c === 95) return 'hyphenated';
    if (c >= 48 && c <= 57) digits = true;
    else letters = true;
  }
  return letters && digits ? 'letters_digits' : digits ? 'digits' : 'letters';
}

/** The committed model file (written by tools/dga/train.ts). Large arrays are base64 to keep it compact. */
export interface DgaModelFile {
  format: 'vigil-dga-nn/3';
  /** sha256 of the word list (data/dga/words.txt) the segmentation features were computed with. */
  wordListSha256: string;
  /** Benign character trigram model: Uint8 surprisal steps, base64. */
  languageModel: string;
  /** Character trigram model of the DGA training labels, same encoding. */
  dgaLanguageModel: string;
  /** How a label is cut into hashed tokens (n-grams, positional characters, length). */
  tokens: TokenScheme;
  denseFeatureNames: string[];
  /** Standardisation of the dense features: x' = (x - mean) / scale. */
  denseMean: number[];
  denseScale: number[];
  /** Linear weights of the standardised dense features. */
  denseWeights: number[];
  /** Linear weights of their pairwise products d[i] * d[j] / 4, i <= j, in row order. */
  pairWeights: number[];
  /** Int16 linear weight per token bucket, base64; weight = int * tokenWeightScale. */
  tokenWeights: string;
  tokenWeightScale: number;
  /** Int8 embedding of each token bucket (`embeddingDim` values per bucket), base64; value = int * embeddingScale. */
  embeddings: string;
  embeddingDim: number;
  embeddingScale: number;
  /**
   * Hidden ReLU layer over [standardised dense features, mean token embedding]: one row of
   * `denseFeatureNames.length + embeddingDim` weights per unit.
   */
  hiddenIn: number[][];
  hiddenBias: number[];
  hiddenOut: number[];
  bias: number;
  /** Probability at or above which a label counts as high-scoring; chosen for the FPR below. */
  threshold: number;
  /** Target false-positive rate of the threshold on the validation split of the Cloudflare top-100k. */
  thresholdFpr: number;
  /**
   * Lower probability for names that count towards a per-host burst, where several distinct names must
   * agree (set at `burstThresholdFpr` on the same validation entries).
   */
  burstThreshold: number;
  burstThresholdFpr: number;
  benignProfile: BenignProfile;
  /** How the model was trained (data, splits, counts, validation figures); informational. */
  training: Record<string, unknown>;
}

export const DGA_MODEL_FORMAT = 'vigil-dga-nn/3';
export const DGA_CNN_MODEL_FORMAT = 'vigil-dga-cnn/1';

/**
 * The character-CNN model file (written by tools/dga/cnn/train-cnn.ts): the language models, word list and
 * dense features of the `vigil-dga-nn/3` model, with a character CNN over the label in place of the hashed
 * tokens and the small network; thresholds and the benign profile as there.
 */
export type DgaCnnModelFile = Omit<
  DgaModelFile,
  'format' | 'tokens' | 'denseWeights' | 'pairWeights' | 'tokenWeights' | 'tokenWeightScale' | 'embeddings' | 'embeddingDim' | 'embeddingScale' | 'hiddenIn' | 'hiddenBias' | 'hiddenOut' | 'bias'
> & { format: typeof DGA_CNN_MODEL_FORMAT; cnn: CharCnnWeights };

export type AnyDgaModelFile = DgaModelFile | DgaCnnModelFile;
const PAIR_COUNT = (DENSE_FEATURE_COUNT * (DENSE_FEATURE_COUNT + 1)) / 2;
export const DEFAULT_DGA_MODEL_PATH = join(__dirname, '..', '..', '..', 'data', 'dga', 'model.json');

/**
 * A small neural model of a registrable label: structural, language-model and word-segmentation features plus
 * hashed character tokens, each token with a linear weight and an embedding; a ReLU layer over the features and
 * the mean embedding, and a logistic output over everything.
 */
export class DgaModel {
  readonly threshold: number;
  readonly burstThreshold: number;
  private readonly lm: CharLanguageModel;
  private readonly dgaLm: CharLanguageModel;
  private readonly tokenWeights: Int16Array;
  private readonly embeddings: Int8Array;
  private readonly hiddenIn: Float64Array;
  private readonly hiddenBias: Float64Array;
  private readonly hiddenOut: Float64Array;
  private readonly denseMean: Float64Array;
  private readonly denseScale: Float64Array;
  private readonly denseWeights: Float64Array;
  private readonly pairWeights: Float64Array;
  /** Models trained with the pairwise products off carry zero weights there: skip the loop. */
  private readonly hasPairs: boolean;
  private readonly inputSize: number;
  private readonly dense = new Float64Array(DENSE_FEATURE_COUNT);
  private readonly input: Float64Array;
  /** Per embedding dimension, the sum of a label's token embeddings (scratch of {@link scoreLabel}). */
  private readonly embeddingSums: Int32Array;

  private readonly tailScores: Float64Array;
  private readonly tailShares: Float64Array;

  /** The character trigram model of benign labels (host-level tests compare labels with it). */
  get benignLanguageModel(): CharLanguageModel {
    return this.lm;
  }

  /** The character CNN of a `vigil-dga-cnn/1` file; undefined for the token network of `vigil-dga-nn/3`. */
  readonly cnn: CharCnn | undefined;

  constructor(
    readonly file: AnyDgaModelFile,
    readonly words: WordSegmenter = defaultWordSegmenter(),
  ) {
    validate(file);
    if (words.sha256 !== undefined && words.sha256 !== file.wordListSha256) {
      throw new Error('DGA model: trained with another word list than the one loaded; retrain with tools/dga/train.ts');
    }
    this.tailScores = Float64Array.from(file.benignProfile.scores);
    this.tailShares = Float64Array.from(file.benignProfile.tail);
    this.threshold = file.threshold;
    this.burstThreshold = file.burstThreshold;
    this.lm = new CharLanguageModel(new Uint8Array(Buffer.from(file.languageModel, 'base64')));
    this.dgaLm = new CharLanguageModel(new Uint8Array(Buffer.from(file.dgaLanguageModel, 'base64')));
    this.denseMean = Float64Array.from(file.denseMean);
    this.denseScale = Float64Array.from(file.denseScale);
    if (file.format === DGA_CNN_MODEL_FORMAT) {
      this.cnn = new CharCnn(file.cnn);
      if (this.cnn.denseInputs !== DENSE_FEATURE_COUNT) throw new Error(`DGA model: cnn.denseInputs must be ${DENSE_FEATURE_COUNT}`);
      this.tokenWeights = new Int16Array(0);
      this.embeddings = new Int8Array(0);
      this.inputSize = DENSE_FEATURE_COUNT;
      this.hiddenIn = this.hiddenBias = this.hiddenOut = this.denseWeights = this.pairWeights = new Float64Array(0);
      this.hasPairs = false;
      this.input = new Float64Array(this.inputSize);
      this.embeddingSums = new Int32Array(0);
      return;
    }
    this.cnn = undefined;
    const weights = Buffer.from(file.tokenWeights, 'base64');
    this.tokenWeights = new Int16Array(weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength));
    const embeddings = Buffer.from(file.embeddings, 'base64');
    this.embeddings = new Int8Array(embeddings.buffer.slice(embeddings.byteOffset, embeddings.byteOffset + embeddings.byteLength));
    this.inputSize = DENSE_FEATURE_COUNT + file.embeddingDim;
    this.hiddenIn = Float64Array.from(file.hiddenIn.flat());
    this.hiddenBias = Float64Array.from(file.hiddenBias);
    this.hiddenOut = Float64Array.from(file.hiddenOut);
    this.denseWeights = Float64Array.from(file.denseWeights);
    this.pairWeights = Float64Array.from(file.pairWeights);
    this.hasPairs = this.pairWeights.some((w) => w !== 0);
    this.input = new Float64Array(this.inputSize);
    this.embeddingSums = new Int32Array(file.embeddingDim);
  }

  static load(path: string = DEFAULT_DGA_MODEL_PATH, words?: WordSegmenter): DgaModel {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      throw new Error(`DGA model: cannot read ${path}: ${(err as Error).message}`);
    }
    return new DgaModel(parsed as AnyDgaModelFile, words);
  }

  /**
   * Share of benign (validation) labels that score at least `score`: how unusual the score would be for a
   * benign name, never below half of one label's share.
   */
  benignTail(score: number): number {
    const scores = this.tailScores;
    const tail = this.tailShares;
    let lo = 0;
    let hi = scores.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (scores[mid] < score) lo = mid + 1;
      else hi = mid;
    }
    // scores[lo - 1] < score <= scores[lo]: the share at scores[lo - 1] bounds the share at `score` from above.
    const floor = 0.5 / this.file.benignProfile.labels;
    return lo === 0 ? 1 : Math.max(floor, tail[lo - 1]);
  }

  /** Probability (0-1) that a registrable label was generated by a DGA. */
  scoreLabel(label: string): number {
    if (label.length === 0) return 0;
    if (this.cnn !== undefined) return this.scoreWithCnn(label, this.cnn);
    // Locals, not `this.` lookups, inside the loops: this runs for every unranked name the engine sees.
    const f = this.file as DgaModelFile;
    const x = this.input;
    const mean = this.denseMean;
    const scale = this.denseScale;
    const denseWeights = this.denseWeights;
    const pairWeights = this.pairWeights;
    const tokenWeights = this.tokenWeights;
    const embeddings = this.embeddings;
    const hiddenIn = this.hiddenIn;
    const hiddenBias = this.hiddenBias;
    const hiddenOut = this.hiddenOut;
    const d = DENSE_FEATURE_COUNT;
    const n = this.inputSize;
    const dim = n - d;

    const dense = denseFeatures(label, this.lm, this.dgaLm, this.words, this.dense);
    let z = f.bias;
    for (let i = 0; i < d; i++) {
      const v = (dense[i] - mean[i]) / scale[i];
      x[i] = v;
      z += denseWeights[i] * v;
    }
    if (this.hasPairs) {
      let pair = 0;
      let pairs = 0;
      for (let i = 0; i < d; i++) {
        const xi = x[i];
        for (let j = i; j < d; j++) pairs += pairWeights[pair++] * xi * x[j];
      }
      z += pairs / 4;
    }

    // Token weights and embeddings are integers: their sums are exact in any order, so they are added as integers
    // and scaled once.
    const { buckets, count } = labelTokens(label, f.tokens);
    const sums = this.embeddingSums;
    sums.fill(0);
    let linear = 0;
    for (let t = 0; t < count; t++) {
      const b = buckets[t];
      linear += tokenWeights[b];
      const base = b * dim;
      for (let k = 0; k < dim; k++) sums[k] += embeddings[base + k];
    }
    const norm = 1 / Math.sqrt(count);
    z += linear * f.tokenWeightScale * norm;
    const embeddingNorm = f.embeddingScale * norm;
    for (let k = 0; k < dim; k++) x[d + k] = sums[k] * embeddingNorm;

    for (let h = 0; h < hiddenOut.length; h++) {
      let a = hiddenBias[h];
      const row = h * n;
      for (let i = 0; i < n; i++) a += hiddenIn[row + i] * x[i];
      if (a > 0) z += hiddenOut[h] * a;
    }
    return 1 / (1 + Math.exp(-z));
  }

  private scoreWithCnn(label: string, cnn: CharCnn): number {
    const dense = denseFeatures(label, this.lm, this.dgaLm, this.words, this.dense);
    const x = this.input;
    for (let i = 0; i < DENSE_FEATURE_COUNT; i++) x[i] = (dense[i] - this.denseMean[i]) / this.denseScale[i];
    return 1 / (1 + Math.exp(-cnn.logit(label, x)));
  }
}

function validate(any: AnyDgaModelFile): void {
  const fail = (why: string): never => {
    throw new Error(`DGA model: ${why}`);
  };
  if (any === null || typeof any !== 'object') fail('not an object');
  if (any.format !== DGA_MODEL_FORMAT && any.format !== DGA_CNN_MODEL_FORMAT) {
    fail(`unknown format ${String((any as { format?: unknown }).format)} (expected ${DGA_CNN_MODEL_FORMAT} or ${DGA_MODEL_FORMAT}; retrain with tools/dga/train.ts)`);
  }
  if (JSON.stringify(any.denseFeatureNames) !== JSON.stringify(DENSE_FEATURE_NAMES)) {
    fail('dense features differ from this code version; retrain with tools/dga/train.ts');
  }
  for (const key of ['denseMean', 'denseScale'] as const) {
    if (!Array.isArray(any[key]) || any[key].length !== DENSE_FEATURE_COUNT) fail(`${key} must hold ${DENSE_FEATURE_COUNT} numbers`);
  }
  validateThresholds(any, fail);
  if (any.format === DGA_CNN_MODEL_FORMAT) {
    if (any.cnn === null || typeof any.cnn !== 'object') fail('cnn missing');
    return;
  }
  const file = any;
  if (!Array.isArray(file.denseWeights) || file.denseWeights.length !== DENSE_FEATURE_COUNT) fail(`denseWeights must hold ${DENSE_FEATURE_COUNT} numbers`);
  if (!Array.isArray(file.pairWeights) || file.pairWeights.length !== PAIR_COUNT) fail(`pairWeights must hold ${PAIR_COUNT} numbers`);
  const t = file.tokens;
  if (t === null || typeof t !== 'object' || !Number.isInteger(t.buckets) || t.buckets < 2 || (t.buckets & (t.buckets - 1)) !== 0) {
    fail('tokens.buckets must be a power of two');
  }
  if (!Number.isInteger(t.maxOrder) || t.maxOrder < 1 || t.maxOrder > 8) fail('tokens.maxOrder must be an integer 1-8');
  if (!Number.isInteger(t.positionTokens) || t.positionTokens < 0) fail('tokens.positionTokens must be a non-negative integer');
  if (!Number.isInteger(file.embeddingDim) || file.embeddingDim < 1) fail('embeddingDim must be a positive integer');
  if (Buffer.from(file.tokenWeights, 'base64').byteLength !== t.buckets * 2) fail('tokenWeights size does not match tokens.buckets');
  if (Buffer.from(file.embeddings, 'base64').byteLength !== t.buckets * file.embeddingDim) fail('embeddings size does not match tokens.buckets x embeddingDim');
  const units = file.hiddenOut?.length;
  if (!Array.isArray(file.hiddenOut) || !Array.isArray(file.hiddenBias) || file.hiddenBias.length !== units) fail('hidden layer sizes differ');
  const inputs = DENSE_FEATURE_COUNT + file.embeddingDim;
  if (!Array.isArray(file.hiddenIn) || file.hiddenIn.length !== units || file.hiddenIn.some((r) => !Array.isArray(r) || r.length !== inputs)) {
    fail(`hiddenIn must hold ${units} rows of ${inputs} numbers`);
  }
}

function validateThresholds(file: AnyDgaModelFile, fail: (why: string) => never): void {
  if (!(file.threshold > 0 && file.threshold < 1)) fail('threshold must lie in (0, 1)');
  if (!(file.burstThreshold > 0 && file.burstThreshold <= file.threshold)) fail('burstThreshold must lie in (0, threshold]');
  const p = file.benignProfile;
  if (p === null || typeof p !== 'object') fail('benignProfile missing');
  if (!Array.isArray(p.scores) || !Array.isArray(p.tail) || p.scores.length !== p.tail.length || p.scores.length === 0) fail('benignProfile.scores and .tail must be arrays of one length');
  if (p.scores.some((x, i) => !(x >= 0 && x <= 1) || (i > 0 && x < p.scores[i - 1]))) fail('benignProfile.scores must ascend within [0, 1]');
  if (!Array.isArray(p.lengths) || p.lengths.length !== 64) fail('benignProfile.lengths must hold 64 shares');
  if (LABEL_CHAR_CLASSES.some((c) => typeof p.charClasses?.[c] !== 'number')) fail('benignProfile.charClasses incomplete');
  if (!(Number.isInteger(p.labels) && p.labels > 0)) fail('benignProfile.labels must be a positive integer');
}
