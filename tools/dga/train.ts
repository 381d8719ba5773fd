/**
 * Trains the DGA label model and writes libs/detection-engine/data/dga/model.json.
 *
 * Two kinds (`kind` below): `nn` (the default, shipped as model.json) trains the hashed-token network in
 * TypeScript (classifier.ts); `--set kind="cnn"` computes the same rows here and trains a character CNN over
 * them in Python (tools/dga/cnn/train-cnn.ts, train_cnn.py; the venv is made on first use):
 *
 *   node -r ./tools/register.cjs tools/dga/train.ts --set kind='"cnn"' --out libs/detection-engine/data/dga/model-cnn.json
 *
 *   node -r ./tools/register.cjs tools/dga/train.ts [<shared data dir>] [--out <model.json>] [--set key=json]...
 *
 * Data (tools/dga/dataset.ts): the `train` slice of the benign labels, the `train` split of every DGA family
 * (at most MAX_LABELS_PER_FAMILY distinct labels each) and the generic labels of each style
 * (tools/dga/synthetic-families.ts). Thresholds and the benign profile come from the deep-tail labels of the
 * benign `validation` slice; the `heldout` slice is read only by the evaluation (`npm run eval:detections`),
 * which also trains one model per left-out family with `trainModel` below.
 * `--set net.tokenDropout=0.5` (repeatable) overrides one setting of DEFAULT_CONFIG for an experiment; every
 * run prints the validation TPR per family.
 * Deterministic (seeded shuffles, initialisation and dropout): the same data gives the same file.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { CharLanguageModel } from '../../libs/detection-engine/src/detections/dga/char-language-model';
import {
  charClassOf,
  DEFAULT_DGA_MODEL_PATH,
  DGA_MODEL_FORMAT,
  DgaModel,
  LABEL_CHAR_CLASSES,
  type AnyDgaModelFile,
  type BenignProfile,
  type DgaModelFile,
} from '../../libs/detection-engine/src/detections/dga/dga-model';
import { DENSE_FEATURE_COUNT, DENSE_FEATURE_NAMES, denseFeatures, labelTokens, type TokenScheme } from '../../libs/detection-engine/src/detections/dga/label-features';
import { DEFAULT_WORD_LIST_PATH, WordSegmenter } from '../../libs/detection-engine/src/detections/dga/word-segmenter';
import { sharedDir } from '../../libs/testing/src/shared-dir';
import { benignLabels, dgaDomains, type BenignLabel, type DgaSample } from './dataset';
import { trainNetwork, type NetOptions, type TrainingRow } from './classifier';
import { syntheticLabels } from './synthetic-families';
import { trainCnnFile } from './cnn/train-cnn';
import { DEFAULT_CNN_SETTINGS, type CnnSettings } from './cnn/settings';

export const TARGET_FPR = 0.001;
export const BURST_FPR = 0.01;
const LM_FOLDS = 5;
/** Large families (20,000 names) would otherwise outweigh the small ones and slow training down. */
export const MAX_LABELS_PER_FAMILY = 2500;
const SYNTHETIC_SEED = 1;
/** Points of the benign score tail kept in the model (log-spaced tail shares). */
const PROFILE_POINTS = 240;

/**
 * The settings of one training run, chosen on the validation splits (per-family TPR printed by every run) and
 * never on the held-out benign slice. Session-3 findings that still hold: without token dropout the network
 * memorises its benign training labels; 24 hidden units and 8-value embeddings beat wider or narrower layers.
 * The pairwise products are off and epochs are 3 so that the 40 leave-one-family-out models of the evaluation
 * train in reasonable time on two shared cores; the generic labels of each style cost in-family validation TPR
 * (43.5 % without them, 30.7 % with them on the session-4 validation split) but are what a family never seen
 * can be recognised by.
 */
export interface TrainingConfig {
  /** `cnn`: the character CNN (tools/dga/cnn, trained in Python); `nn`: the hashed-token network of classifier.ts. */
  kind: 'cnn' | 'nn';
  /** Settings of the CNN trainer (tools/dga/cnn/train_cnn.py command-line options). */
  cnn: CnnSettings;
  tokens: TokenScheme;
  net: Omit<NetOptions, 'buckets' | 'log'>;
  /** Total weight of the benign class relative to the DGA class: false positives cost more. */
  benignClassWeight: number;
  /**
   * A DGA family's total weight grows as (its number of labels)^power: 1 weighs every label alike, lower
   * values let small families count for more than their size.
   */
  familyWeightPower: number;
  /** Whether the generic labels of each style (tools/dga/synthetic-families.ts) are trained on. */
  syntheticStyles: boolean;
}

export const DEFAULT_CONFIG: TrainingConfig = {
  kind: 'nn',
  cnn: DEFAULT_CNN_SETTINGS,
  tokens: { maxOrder: 5, positionTokens: 6, buckets: 1 << 16 },
  net: { epochs: 3, learningRate: 0.05, l2: 1e-5, embeddingDim: 8, hiddenUnits: 24, seed: 7, hardNegativeBoost: 1, hardNegativeCap: 1, tokenDropout: 0.7, pairwise: false },
  benignClassWeight: 2,
  familyWeightPower: 0.7,
  syntheticStyles: true,
};

export interface LabelledLabel {
  label: string;
  family: string;
}

function foldOf(label: string): number {
  return createHash('sha256').update(`lm-fold:${label}`).digest()[0] % LM_FOLDS;
}

/** Per-label weights of the DGA rows: family totals follow size^power, the class total benign/benignClassWeight. */
function dgaWeights(dga: LabelledLabel[], benignCount: number, config: TrainingConfig): number[] {
  const sizes = new Map<string, number>();
  for (const d of dga) sizes.set(d.family, (sizes.get(d.family) ?? 0) + 1);
  const raw = dga.map((d) => sizes.get(d.family)! ** (config.familyWeightPower - 1));
  const total = raw.reduce((a, b) => a + b, 0);
  const target = benignCount / config.benignClassWeight;
  return raw.map((r) => (r * target) / total);
}

/**
 * Features for the training rows. The benign language model feature of a benign training label comes from a
 * model trained without that label's fold, so that training sees the surprisal of an unseen popular label,
 * as inference will (likewise the DGA model feature of a DGA label).
 */
export function trainingRows(benign: string[], dga: LabelledLabel[], words: WordSegmenter, finalLm: CharLanguageModel, finalDgaLm: CharLanguageModel, config: TrainingConfig): TrainingRow[] {
  const foldLms = Array.from({ length: LM_FOLDS }, (_, k) => CharLanguageModel.train(benign.filter((l) => foldOf(l) !== k)));
  const dgaFoldLms = Array.from({ length: LM_FOLDS }, (_, k) => CharLanguageModel.train(dga.filter((d) => foldOf(d.label) !== k).map((d) => d.label)));
  const weights = dgaWeights(dga, benign.length, config);
  const row = (label: string, lm: CharLanguageModel, dgaLm: CharLanguageModel, y: 0 | 1, weight: number): TrainingRow => {
    const { buckets, count } = labelTokens(label, config.tokens);
    return { dense: denseFeatures(label, lm, dgaLm, words), tokens: buckets.slice(0, count), y, weight };
  };
  return [
    ...benign.map((l) => row(l, foldLms[foldOf(l)], finalDgaLm, 0, 1)),
    ...dga.map((d, i) => row(d.label, finalLm, dgaFoldLms[foldOf(d.label)], 1, weights[i])),
  ];
}

export function standardise(rows: TrainingRow[]): { mean: number[]; scale: number[] } {
  const mean = new Array<number>(DENSE_FEATURE_COUNT).fill(0);
  const sq = new Array<number>(DENSE_FEATURE_COUNT).fill(0);
  for (const r of rows) for (let i = 0; i < DENSE_FEATURE_COUNT; i++) mean[i] += r.dense[i] / rows.length;
  for (const r of rows) for (let i = 0; i < DENSE_FEATURE_COUNT; i++) sq[i] += (r.dense[i] - mean[i]) ** 2 / rows.length;
  const scale = sq.map((v) => (Math.sqrt(v) > 1e-9 ? Math.sqrt(v) : 1));
  for (const r of rows) for (let i = 0; i < DENSE_FEATURE_COUNT; i++) r.dense[i] = (r.dense[i] - mean[i]) / scale[i];
  return { mean, scale };
}

/** Lowest threshold that flags at most `fpr` of the benign scores (strictly above the allowed count). */
export function thresholdAtFpr(benignScores: number[], fpr: number): number {
  const sorted = [...benignScores].sort((a, b) => b - a);
  const allowed = Math.floor(fpr * sorted.length);
  const above = allowed === 0 ? 1 : sorted[allowed - 1];
  const below = sorted[allowed];
  return below === above ? below + 1e-9 : (above + below) / 2;
}

/** The benign profile of the per-host decision, from the validation labels' scores, lengths and characters. */
export function benignProfile(model: DgaModel, labels: string[]): BenignProfile {
  const sorted = labels.map((l) => model.scoreLabel(l)).sort((a, b) => a - b);
  const n = sorted.length;
  const scores: number[] = [];
  const tail: number[] = [];
  // Log-spaced tail shares from 1 down to 1/n; each point is (score, share of labels scoring >= score).
  for (let k = 0; k < PROFILE_POINTS; k++) {
    const share = Math.exp((Math.log(1 / n) * k) / (PROFILE_POINTS - 1));
    const index = Math.min(n - 1, Math.max(0, n - Math.round(share * n)));
    const score = sorted[index];
    if (scores.length > 0 && score <= scores[scores.length - 1]) continue;
    let first = index;
    while (first > 0 && sorted[first - 1] === score) first--;
    scores.push(round(score, 9));
    tail.push(round((n - first) / n, 9));
  }
  const lengths = new Array<number>(64).fill(0);
  const charClasses = Object.fromEntries(LABEL_CHAR_CLASSES.map((c) => [c, 0])) as BenignProfile['charClasses'];
  for (const l of labels) {
    lengths[Math.min(l.length, 64) - 1] += 1 / n;
    charClasses[charClassOf(l)] += 1 / n;
  }
  return {
    scores,
    tail,
    lengths: lengths.map((x) => round(x, 7)),
    charClasses: Object.fromEntries(Object.entries(charClasses).map(([c, x]) => [c, round(x, 7)])) as BenignProfile['charClasses'],
    labels: n,
  };
}

/** Symmetric quantisation to `bits`, clipping the rare weights beyond the 99.99th percentile of |w|. */
function quantise(weights: Float64Array, bits: 8 | 16): { base64: string; scale: number } {
  const levels = bits === 8 ? 127 : 32767;
  const sorted = Float64Array.from(weights, Math.abs).sort();
  const clip = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.9999))] || 1;
  const scale = clip / levels;
  const q = (w: number): number => Math.max(-levels, Math.min(levels, Math.round(w / scale)));
  const ints = bits === 8 ? Int8Array.from(weights, q) : Int16Array.from(weights, q);
  return { base64: Buffer.from(ints.buffer).toString('base64'), scale };
}

function chunk(values: number[], size: number): number[][] {
  return Array.from({ length: values.length / size }, (_, i) => values.slice(i * size, (i + 1) * size));
}

export function round(x: number, digits = 6): number {
  return Number(x.toFixed(digits));
}

export interface TrainingSet {
  benignTrain: string[];
  dgaTrain: LabelledLabel[];
  /** Deep-tail validation labels: thresholds and the benign profile. */
  validationBenign: string[];
}

/** Sets the thresholds and the benign profile of a freshly trained model file on the validation labels. */
export function withThresholds(file: AnyDgaModelFile, words: WordSegmenter, validationBenign: string[]): DgaModel {
  const provisional = new DgaModel(file, words);
  const validationScores = validationBenign.map((l) => provisional.scoreLabel(l));
  file.threshold = round(thresholdAtFpr(validationScores, TARGET_FPR), 9);
  file.burstThreshold = round(thresholdAtFpr(validationScores, BURST_FPR), 9);
  file.benignProfile = benignProfile(provisional, validationBenign);
  return new DgaModel(file, words);
}

export const PLACEHOLDER_PROFILE: BenignProfile = { scores: [0], tail: [1], lengths: new Array<number>(64).fill(0), charClasses: { letters: 1, letters_digits: 0, digits: 0, hyphenated: 0 }, labels: 1 };

export function trainModel(set: TrainingSet, words: WordSegmenter, training: Record<string, unknown>, config: TrainingConfig = DEFAULT_CONFIG, log: (line: string) => void = () => {}): DgaModel {
  if (config.kind === 'cnn') return withThresholds(trainCnnFile(set, words, training, config, log), words, set.validationBenign);
  const { benignTrain, dgaTrain, validationBenign } = set;
  const lm = CharLanguageModel.train(benignTrain);
  const dgaLm = CharLanguageModel.train(dgaTrain.map((d) => d.label));
  const rows = trainingRows(benignTrain, dgaTrain, words, lm, dgaLm, config);
  const { mean, scale } = standardise(rows);
  const weights = trainNetwork(rows, { ...config.net, buckets: config.tokens.buckets, log });
  const tokenWeights = quantise(weights.tokens, 16);
  const embeddings = quantise(weights.embeddings, 8);
  const file: DgaModelFile = {
    format: DGA_MODEL_FORMAT,
    wordListSha256: words.sha256 ?? '',
    languageModel: Buffer.from(lm.table).toString('base64'),
    dgaLanguageModel: Buffer.from(dgaLm.table).toString('base64'),
    tokens: config.tokens,
    denseFeatureNames: [...DENSE_FEATURE_NAMES],
    denseMean: mean.map((x) => round(x)),
    denseScale: scale.map((x) => round(x)),
    denseWeights: Array.from(weights.dense, (x) => round(x)),
    pairWeights: Array.from(weights.pairs, (x) => round(x)),
    tokenWeights: tokenWeights.base64,
    tokenWeightScale: tokenWeights.scale,
    embeddings: embeddings.base64,
    embeddingDim: config.net.embeddingDim,
    embeddingScale: embeddings.scale,
    hiddenIn: chunk(Array.from(weights.hiddenIn, (x) => round(x)), DENSE_FEATURE_COUNT + config.net.embeddingDim),
    hiddenBias: Array.from(weights.hiddenBias, (x) => round(x)),
    hiddenOut: Array.from(weights.hiddenOut, (x) => round(x)),
    bias: round(weights.bias),
    threshold: 0.5,
    thresholdFpr: TARGET_FPR,
    burstThreshold: 0.5,
    burstThresholdFpr: BURST_FPR,
    benignProfile: PLACEHOLDER_PROFILE,
    training,
  };
  return withThresholds(file, words, validationBenign);
}

/** Distinct DGA labels of the given domains, at most `cap` per family (first ones), never a benign label. */
export function dgaLabels(domains: DgaSample[], benign: ReadonlySet<string>, cap = MAX_LABELS_PER_FAMILY): LabelledLabel[] {
  const seen = new Set<string>();
  const perFamily = new Map<string, number>();
  const out: LabelledLabel[] = [];
  for (const d of domains) {
    if (seen.has(d.label) || benign.has(d.label)) continue;
    const count = perFamily.get(d.family) ?? 0;
    if (count >= cap) continue;
    seen.add(d.label);
    perFamily.set(d.family, count + 1);
    out.push({ label: d.label, family: d.family });
  }
  return out;
}

export interface TrainingData {
  benign: BenignLabel[];
  dga: DgaSample[];
  words: WordSegmenter;
  wordList: string[];
}

export function loadTrainingData(dataDir: string, wordListPath: string = DEFAULT_WORD_LIST_PATH): TrainingData {
  const words = WordSegmenter.load(wordListPath);
  const wordList = readFileSync(wordListPath, 'utf8').split('\n').filter((l) => l.length > 0);
  return { benign: benignLabels(dataDir), dga: dgaDomains(dataDir), words, wordList };
}

/**
 * The training set with `leftOut` families removed entirely (leave-one-family-out); empty for the product
 * model. Benign: the train slice; thresholds: the deep-tail validation labels.
 */
export function trainingSet(data: TrainingData, config: TrainingConfig, leftOut: ReadonlySet<string> = new Set()): TrainingSet {
  const benignSet = new Set(data.benign.map((b) => b.label));
  const benignTrain = data.benign.filter((b) => b.slice === 'train').map((b) => b.label);
  const validationBenign = data.benign.filter((b) => b.slice === 'validation' && b.deepTail).map((b) => b.label);
  const real = dgaLabels(data.dga.filter((d) => d.split === 'train' && !leftOut.has(d.family)), benignSet);
  const synthetic = config.syntheticStyles ? syntheticLabels(data.wordList, SYNTHETIC_SEED).filter((s) => !benignSet.has(s.label)) : [];
  return { benignTrain, dgaTrain: [...real, ...synthetic.map((s) => ({ label: s.label, family: s.family }))], validationBenign };
}

/** TPR per domain of the DGA validation split at the model's threshold: the figure settings are chosen by. */
export function validationReport(model: DgaModel, data: TrainingData): { tpr: number; burstTpr: number; families: Record<string, number> } {
  const dga = data.dga.filter((d) => d.split === 'validation');
  const hits = new Map<string, [number, number]>();
  let tp = 0;
  let burst = 0;
  for (const d of dga) {
    const s = model.scoreLabel(d.label);
    const h = hits.get(d.family) ?? [0, 0];
    h[1]++;
    if (s >= model.threshold) {
      tp++;
      h[0]++;
    }
    if (s >= model.burstThreshold) burst++;
    hits.set(d.family, h);
  }
  const families = Object.fromEntries([...hits].sort().map(([f, [k, n]]) => [f, round(k / n, 4)]));
  return { tpr: round(tp / dga.length, 4), burstTpr: round(burst / dga.length, 4), families };
}

/** Applies `--set a.b=value` overrides (values parsed as JSON) to a copy of the default settings. */
export function configWith(overrides: string[]): TrainingConfig {
  const config = JSON.parse(JSON.stringify(DEFAULT_CONFIG)) as TrainingConfig;
  for (const o of overrides) {
    const eq = o.indexOf('=');
    if (eq < 0) throw new Error(`--set expects key=value, got ${o}`);
    const path = o.slice(0, eq).split('.');
    let target = config as unknown as Record<string, unknown>;
    for (const key of path.slice(0, -1)) {
      if (typeof target[key] !== 'object' || target[key] === null) throw new Error(`--set: unknown setting ${o.slice(0, eq)}`);
      target = target[key] as Record<string, unknown>;
    }
    const last = path[path.length - 1];
    if (!(last in target)) throw new Error(`--set: unknown setting ${o.slice(0, eq)}`);
    target[last] = JSON.parse(o.slice(eq + 1));
  }
  return config;
}

function main(argv: string[]): void {
  const valued = new Set(['--out', '--set']);
  const outIndex = argv.indexOf('--out');
  const out = outIndex >= 0 ? argv[outIndex + 1] : DEFAULT_DGA_MODEL_PATH;
  const overrides = argv.flatMap((a, i) => (argv[i - 1] === '--set' ? [a] : []));
  const positional = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]));
  const dataDir = positional[0] ?? sharedDir('data');
  const config = configWith(overrides);

  const started = Date.now();
  const data = loadTrainingData(dataDir);
  const set = trainingSet(data, config);
  const training: Record<string, unknown> = {
    data: 'shared/data benign/{cloudflare-top100k,tranco10k,majestic-top10k,cisco-top20k} + dga/train/* + generic labels per style',
    split: 'benign: sha256 of the label; 20 % of deep-tail labels held out (evaluation only), 20 % validation, rest train; DGA: 80 % train, 20 % validation',
    benignTrainLabels: set.benignTrain.length,
    dgaTrainLabels: set.dgaTrain.length,
    dgaFamilies: new Set(set.dgaTrain.map((d) => d.family)).size,
    validationDeepTailLabels: set.validationBenign.length,
    config,
    optimiser: config.kind === 'cnn' ? `AdamW (optax), minibatches of ${config.cnn.batch}, ${config.cnn.epochs} epochs` : 'AdaGrad, single shuffled samples',
  };
  process.stderr.write(`training on ${set.benignTrain.length} benign and ${set.dgaTrain.length} DGA labels\n`);
  const model = trainModel(set, data.words, training, config, (l) => process.stderr.write(`${l}\n`));
  const report = validationReport(model, data);
  training.validation = report;
  training.seconds = Math.round((Date.now() - started) / 1000);
  writeFileSync(out, `${JSON.stringify(model.file)}\n`);
  console.log(
    `wrote ${out}: threshold ${model.threshold} (FPR ${TARGET_FPR * 100} %), burst threshold ${model.burstThreshold} ` +
      `(FPR ${BURST_FPR * 100} %) on ${set.validationBenign.length} validation deep-tail labels; ${training.seconds} s\n` +
      `validation DGA TPR ${(100 * report.tpr).toFixed(2)} % at the threshold, ${(100 * report.burstTpr).toFixed(2)} % at the burst threshold\n` +
      Object.entries(report.families).map(([f, r]) => `${f} ${(100 * r).toFixed(1)}`).join(', '),
  );
}

if (require.main === module) main(process.argv.slice(2));
