/**
 * Leave-one-family-out (LOFO) models: for every DGA family of the shared data, a model trained exactly as the
 * product's (tools/dga/train.ts: same data slices, settings, thresholds on the benign validation slice) but
 * without any name of that family. Scoring the left-out family with its fold's model estimates how the product
 * fares on a family it has never seen.
 *
 * Folds are trained in worker processes (tools/dga/lofo-worker.ts), `workers` at a time, and cached under
 * .cache/dga-lofo/ keyed by a hash of the training data, the word list, the trainer and feature code and the
 * fold, so a second run with nothing changed trains nothing. `quick` leaves out groups of families
 * (QUICK_GROUPS folds instead of one per family): fewer models, and a harder test, since each fold also lacks
 * the other families of its group.
 *
 * The folds train the kind of model the product ships (the format of data/dga/model.json: the character CNN
 * or the token network); `DGA_LOFO_MODEL=cnn|nn` evaluates the other kind instead.
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_DGA_MODEL_PATH, DGA_CNN_MODEL_FORMAT, DgaModel, type AnyDgaModelFile } from '../../libs/detection-engine/src/detections/dga/dga-model';
import { DEFAULT_WORD_LIST_PATH, WordSegmenter } from '../../libs/detection-engine/src/detections/dga/word-segmenter';
import { dgaFamilies } from './dataset';
import { styleOf } from './family-styles';

const ROOT = join(__dirname, '..', '..');
export const LOFO_CACHE_DIR = join(ROOT, '.cache', 'dga-lofo');
export const QUICK_GROUPS = 8;

/** The code whose change must retrain the folds. */
const CODE_FILES = [
  'tools/dga/train.ts',
  'tools/dga/classifier.ts',
  'tools/dga/dataset.ts',
  'tools/dga/synthetic-families.ts',
  'tools/dga/lofo-worker.ts',
  'tools/dga/cnn/train-cnn.ts',
  'tools/dga/cnn/settings.ts',
  'tools/dga/cnn/train_cnn.py',
  'tools/dga/cnn/requirements.txt',
  'libs/detection-engine/src/detections/dga/char-cnn.ts',
  'libs/detection-engine/src/detections/dga/label-features.ts',
  'libs/detection-engine/src/detections/dga/char-language-model.ts',
  'libs/detection-engine/src/detections/dga/dga-model.ts',
  'libs/detection-engine/src/detections/dga/word-segmenter.ts',
  'libs/detection-engine/src/detections/dga/registrable-label.ts',
  'libs/detection-engine/src/domain.ts',
];

export type ModelKind = 'cnn' | 'nn';

/** The kind the folds train: DGA_LOFO_MODEL, else the kind of the committed product model. */
export function lofoModelKind(): ModelKind {
  const env = process.env.DGA_LOFO_MODEL;
  if (env === 'cnn' || env === 'nn') return env;
  if (env !== undefined && env !== '') throw new Error(`DGA_LOFO_MODEL must be cnn or nn, not ${env}`);
  const format = (JSON.parse(readFileSync(DEFAULT_DGA_MODEL_PATH, 'utf8')) as { format: string }).format;
  return format === DGA_CNN_MODEL_FORMAT ? 'cnn' : 'nn';
}

/** The committed character-CNN model (tools/dga/train.ts --set kind='"cnn"'), beside the product's model.json. */
export const CNN_MODEL_PATH = join(ROOT, 'libs', 'detection-engine', 'data', 'dga', 'model-cnn.json');

/** The committed model of the kind the folds train: model-cnn.json for CNN folds beside a token-network product. */
export function committedModelOfLofoKind(): DgaModel {
  const product = DgaModel.load();
  return lofoModelKind() === 'cnn' && product.cnn === undefined ? DgaModel.load(CNN_MODEL_PATH) : product;
}

export interface Fold {
  /** Families this fold's model never saw. */
  leftOut: string[];
  kind: ModelKind;
  /** Cache key: hash of data, code and the fold. */
  key: string;
  path: string;
}

export interface LofoOptions {
  dataDir: string;
  quick: boolean;
  workers: number;
  /** Train the missing folds last-first (a second process can then share the work with a first one). */
  reverse?: boolean;
  log?: (line: string) => void;
}

function inputsHash(dataDir: string): string {
  const hash = createHash('sha256');
  const add = (path: string): void => {
    hash.update(path.slice(path.lastIndexOf('/') + 1));
    hash.update(readFileSync(path));
  };
  for (const sub of ['dga/train', 'benign']) {
    const dir = join(dataDir, sub);
    for (const f of readdirSync(dir).sort()) add(join(dir, f));
  }
  add(DEFAULT_WORD_LIST_PATH);
  for (const f of CODE_FILES) add(join(ROOT, f));
  return hash.digest('hex');
}

/** One fold per family, or (quick) QUICK_GROUPS folds dealing the families, ordered by style, round-robin. */
export function planFolds(dataDir: string, quick: boolean, kind: ModelKind = lofoModelKind()): Fold[] {
  const families = dgaFamilies(dataDir);
  const base = inputsHash(dataDir);
  let groups: string[][];
  if (!quick) groups = families.map((f) => [f]);
  else {
    const ordered = [...families].sort((a, b) => styleOf(a).localeCompare(styleOf(b)) || a.localeCompare(b));
    groups = Array.from({ length: QUICK_GROUPS }, () => []);
    ordered.forEach((f, i) => groups[i % QUICK_GROUPS].push(f));
  }
  return groups.map((leftOut) => {
    const key = createHash('sha256').update(base).update(kind).update(JSON.stringify(leftOut)).digest('hex').slice(0, 24);
    return { leftOut, kind, key, path: join(LOFO_CACHE_DIR, `${key}.json`) };
  });
}

/** Trains the folds missing from the cache, `workers` processes at a time. */
async function trainMissing(folds: Fold[], options: LofoOptions): Promise<void> {
  const missing = folds.filter((f) => !existsSync(f.path));
  if (missing.length === 0) return;
  mkdirSync(LOFO_CACHE_DIR, { recursive: true });
  const log = options.log ?? (() => {});
  log(`training ${missing.length} leave-family-out ${missing[0].kind} model(s) with ${options.workers} worker(s) (cached in ${LOFO_CACHE_DIR})`);
  const queue = options.reverse === true ? [...missing].reverse() : [...missing];
  const started = Date.now();
  let done = 0;
  const worker = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const child = fork(join(__dirname, 'lofo-worker.ts'), [], { execArgv: ['-r', join(ROOT, 'tools', 'register.cjs')], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      const next = (): void => {
        let fold = queue.shift();
        // Another process may have trained it meanwhile.
        while (fold !== undefined && existsSync(fold.path)) {
          done++;
          fold = queue.shift();
        }
        if (fold === undefined) {
          child.send({ type: 'exit' });
          return;
        }
        child.send({ type: 'train', dataDir: options.dataDir, leftOut: fold.leftOut, kind: fold.kind, out: fold.path });
      };
      child.on('message', (message: { type: string; leftOut?: string[]; seconds?: number }) => {
        if (message.type === 'ready') next();
        else if (message.type === 'trained') {
          done++;
          log(`  fold ${done}/${missing.length} without ${message.leftOut!.join(', ')}: ${message.seconds} s (${Math.round((Date.now() - started) / 1000)} s elapsed)`);
          next();
        }
      });
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`LOFO worker exited with code ${code}`))));
    });
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.workers, missing.length)) }, worker));
}

export interface FoldModel {
  fold: Fold;
  model: DgaModel;
}

/** Every fold's model, trained where the cache lacks it. */
export async function lofoModels(options: LofoOptions): Promise<FoldModel[]> {
  const folds = planFolds(options.dataDir, options.quick);
  await trainMissing(folds, options);
  const words = WordSegmenter.load();
  return folds.map((fold) => ({ fold, model: new DgaModel(JSON.parse(readFileSync(fold.path, 'utf8')) as AnyDgaModelFile, words) }));
}
