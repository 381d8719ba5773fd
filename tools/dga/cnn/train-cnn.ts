/**
 * Trains the character CNN of the DGA model (format `vigil-dga-cnn/1`): computes the training rows here (the
 * same labels, class weights and dense features as the token network of tools/dga/train.ts, standardised),
 * hands them to tools/dga/cnn/train_cnn.py (JAX, in .cache/dga-venv, made by ensure-venv.sh) and wraps the
 * weights it writes into a model file. Thresholds and the benign profile are set by the caller
 * (train.ts `withThresholds`, on the benign validation labels only).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CharCnnWeights } from '../../../libs/detection-engine/src/detections/dga/char-cnn';
import { CharLanguageModel } from '../../../libs/detection-engine/src/detections/dga/char-language-model';
import { DGA_CNN_MODEL_FORMAT, type DgaCnnModelFile } from '../../../libs/detection-engine/src/detections/dga/dga-model';
import { DENSE_FEATURE_COUNT, DENSE_FEATURE_NAMES, denseFeatures } from '../../../libs/detection-engine/src/detections/dga/label-features';
import type { WordSegmenter } from '../../../libs/detection-engine/src/detections/dga/word-segmenter';
import { BURST_FPR, PLACEHOLDER_PROFILE, standardise, TARGET_FPR, trainingRows, type TrainingConfig, type TrainingSet } from '../train';

export { DEFAULT_CNN_SETTINGS, type CnnSettings } from './settings';

/** Names whose scores the trainer exports, so that a test can hold the TypeScript inference to the Python one. */
export const REFERENCE_LABELS = [
  'google',
  'facebook',
  'headmarch',
  'stackoverflow',
  'bbc',
  'a',
  'x-y_z',
  'tufomgucxbxqvut',
  'kdpejqcwzb',
  'cmid1s1zeiu',
  'extionom',
  'minihileth-subatudofy',
  'theirtheandaloneinto',
  'koreasys0',
  'e89d45b16370ee7e43daeaf6ce8d9547',
  'mdiwnjiwmtya',
  'lvwhmvsglhaydwaqhmbgqzdaqxyzabcdefghij',
  'caf\u00e9',
];

const PYTHON_DIR = __dirname;

function features(x: ArrayLike<number>, digits?: number): string {
  return Array.from(x, (v) => (digits === undefined ? String(v) : v.toFixed(digits))).join(',');
}

export function trainCnnFile(set: TrainingSet, words: WordSegmenter, training: Record<string, unknown>, config: TrainingConfig, log: (line: string) => void = () => {}): DgaCnnModelFile {
  const lm = CharLanguageModel.train(set.benignTrain);
  const dgaLm = CharLanguageModel.train(set.dgaTrain.map((d) => d.label));
  const rows = trainingRows(set.benignTrain, set.dgaTrain, words, lm, dgaLm, config);
  const labels = [...set.benignTrain, ...set.dgaTrain.map((d) => d.label)];
  const { mean, scale } = standardise(rows);

  const dir = mkdtempSync(join(tmpdir(), 'vigil-dga-cnn-'));
  try {
    const rowsPath = join(dir, 'rows.tsv');
    const referencePath = join(dir, 'reference.tsv');
    const outPath = join(dir, 'weights.json');
    writeFileSync(rowsPath, rows.map((r, i) => `${r.y}\t${r.weight}\t${labels[i]}\t${features(r.dense, 5)}\n`).join(''));
    writeFileSync(
      referencePath,
      REFERENCE_LABELS.map((label) => {
        const f = denseFeatures(label, lm, dgaLm, words);
        for (let i = 0; i < DENSE_FEATURE_COUNT; i++) f[i] = (f[i] - mean[i]) / scale[i];
        return `${label}\t${features(f)}\n`;
      }).join(''),
    );
    const python = execFileSync(join(PYTHON_DIR, 'ensure-venv.sh'), { encoding: 'utf8' }).trim();
    const s = config.cnn;
    const args = [
      '-n', '10', python, join(PYTHON_DIR, 'train_cnn.py'), '--rows', rowsPath, '--reference', referencePath, '--out', outPath,
      '--epochs', String(s.epochs), '--batch', String(s.batch), '--lr', String(s.lr), '--weight-decay', String(s.weightDecay),
      '--widths', s.widths.join(','), '--filters', String(s.filters), '--embedding', String(s.embedding), '--hidden', String(s.hidden),
      '--dropout', String(s.dropout), '--seed', String(s.seed),
    ];
    const run = spawnSync('nice', args, { encoding: 'utf8', maxBuffer: 1 << 26 });
    for (const line of (run.stderr ?? '').split('\n')) if (line.trim() !== '') log(`  cnn: ${line}`);
    if (run.status !== 0) throw new Error(`tools/dga/cnn/train_cnn.py failed (status ${run.status}): ${run.stderr}`);
    const cnn = JSON.parse(readFileSync(outPath, 'utf8')) as CharCnnWeights & { seconds?: number };
    delete cnn.seconds;
    return {
      format: DGA_CNN_MODEL_FORMAT,
      wordListSha256: words.sha256 ?? '',
      languageModel: Buffer.from(lm.table).toString('base64'),
      dgaLanguageModel: Buffer.from(dgaLm.table).toString('base64'),
      denseFeatureNames: [...DENSE_FEATURE_NAMES],
      // Unrounded: the reference scores were computed with these exact values.
      denseMean: mean,
      denseScale: scale,
      cnn,
      threshold: 0.5,
      thresholdFpr: TARGET_FPR,
      burstThreshold: 0.5,
      burstThresholdFpr: BURST_FPR,
      benignProfile: PLACEHOLDER_PROFILE,
      training: { ...training, cnnTrainer: 'tools/dga/cnn/train_cnn.py (JAX, AdamW, weighted cross-entropy)' },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
