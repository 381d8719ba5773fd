/**
 * Writes the CNN trainer's inputs for one leave-families-out fold plus evaluation files, for trying trainer
 * settings directly with `train_cnn.py --eval-dir` (validation slice only; never the held-out benign slice):
 *
 *   node -r ./tools/register.cjs tools/dga/cnn/dump-experiment.ts <out dir> <quick fold index>
 *
 * eval.tsv: y, style, family, label, features for the benign validation deep-tail labels and every DGA label
 * of the validation split (in-fold families) or of any split (left-out families, marked `left-out:`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CharLanguageModel } from '../../../libs/detection-engine/src/detections/dga/char-language-model';
import { DENSE_FEATURE_COUNT, denseFeatures } from '../../../libs/detection-engine/src/detections/dga/label-features';
import { sharedDir } from '../../../libs/testing/src/shared-dir';
import { styleOf } from '../family-styles';
import { planFolds } from '../lofo';
import { DEFAULT_CONFIG, loadTrainingData, standardise, trainingRows, trainingSet } from '../train';

const [outDir, foldArg] = process.argv.slice(2);
const dataDir = sharedDir('data');
const fold = planFolds(dataDir, true)[Number(foldArg)];
const leftOut = new Set(fold.leftOut);
const data = loadTrainingData(dataDir);
const set = trainingSet(data, DEFAULT_CONFIG, leftOut);
const lm = CharLanguageModel.train(set.benignTrain);
const dgaLm = CharLanguageModel.train(set.dgaTrain.map((d) => d.label));
const rows = trainingRows(set.benignTrain, set.dgaTrain, data.words, lm, dgaLm, DEFAULT_CONFIG);
const labels = [...set.benignTrain, ...set.dgaTrain.map((d) => d.label)];
const { mean, scale } = standardise(rows);
const feats = (label: string): string => {
  const f = denseFeatures(label, lm, dgaLm, data.words);
  for (let i = 0; i < DENSE_FEATURE_COUNT; i++) f[i] = (f[i] - mean[i]) / scale[i];
  return Array.from(f, (v) => v.toFixed(5)).join(',');
};
mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, 'rows.tsv'), rows.map((r, i) => `${r.y}\t${r.weight}\t${labels[i]}\t${Array.from(r.dense, (v) => v.toFixed(5)).join(',')}\n`).join(''));
writeFileSync(join(outDir, 'reference.tsv'), `google\t${feats('google')}\n`);
const lines: string[] = set.validationBenign.map((l) => `0\tbenign\tbenign\t${l}\t${feats(l)}\n`);
const seen = new Set<string>();
for (const d of data.dga) {
  const out = leftOut.has(d.family);
  if (!out && d.split !== 'validation') continue;
  if (seen.has(d.label)) continue;
  seen.add(d.label);
  lines.push(`1\t${styleOf(d.family)}\t${out ? 'left-out:' : ''}${d.family}\t${d.label}\t${feats(d.label)}\n`);
}
writeFileSync(join(outDir, 'eval.tsv'), lines.join(''));
console.log(`fold ${foldArg}: left out ${fold.leftOut.join(', ')}; ${rows.length} rows, ${lines.length} eval labels`);
