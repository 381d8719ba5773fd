/**
 * Builds libs/detection-engine/data/dga/kinship-null.json: the benign distribution of the per-host kinship
 * statistic (src/detections/dga/label-kinship.ts) for windows of 2 to 32 labels, drawn at random from the
 * deep-tail labels of the benign VALIDATION slice (never the held-out slice), scored with the committed
 * model's benign language model:
 *
 *   node -r ./tools/register.cjs tools/dga/build-kinship-null.ts [<shared data dir>] [--windows N]
 *
 * Deterministic for the same data and model.
 */
import { writeFileSync } from 'node:fs';
import { DgaModel } from '../../libs/detection-engine/src/detections/dga/dga-model';
import { DEFAULT_DGA_VOLUME_OPTIONS } from '../../libs/detection-engine/src/detections/dga/dga-volume';
import { DEFAULT_KINSHIP_NULL_PATH, KINSHIP_NULL_FORMAT, languageModelSha256, type KinshipNullFile } from '../../libs/detection-engine/src/detections/dga/kinship-null';
import { kinshipLabels, labelKinship } from '../../libs/detection-engine/src/detections/dga/label-kinship';
import { createRng } from '../../libs/testing/src/prng';
import { sharedDir } from '../../libs/testing/src/shared-dir';
import { benignLabels } from './dataset';

const TAIL_SHARES = [0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002];

function main(argv: string[]): void {
  const windowsIndex = argv.indexOf('--windows');
  const windows = windowsIndex >= 0 ? Number(argv[windowsIndex + 1]) : 10_000;
  const dataDir = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--windows') ?? sharedDir('data');
  const minLength = DEFAULT_DGA_VOLUME_OPTIONS.minLabelLength;
  const labels = kinshipLabels([...new Set(benignLabels(dataDir).filter((b) => b.slice === 'validation' && b.deepTail).map((b) => b.label))].filter((l) => l.length >= minLength));
  const lm = DgaModel.load().benignLanguageModel;
  const rng = createRng('kinship-null');
  const quantiles: Record<string, number[]> = {};
  for (let n = 2; n <= DEFAULT_DGA_VOLUME_OPTIONS.maxDomainsPerHost; n++) {
    const values = new Float64Array(windows);
    for (let w = 0; w < windows; w++) {
      const picked = new Set<string>();
      while (picked.size < n) picked.add(rng.pick(labels));
      values[w] = labelKinship([...picked], lm);
    }
    values.sort();
    // The value reached by a share s of benign windows: the (1 - s) quantile, rounded up to keep p-values conservative.
    quantiles[n] = TAIL_SHARES.map((s) => Math.ceil(values[Math.min(windows - 1, Math.ceil((1 - s) * windows))] * 100) / 100);
  }
  const file: KinshipNullFile = {
    format: KINSHIP_NULL_FORMAT,
    languageModelSha256: languageModelSha256(lm),
    tailShares: TAIL_SHARES,
    quantiles,
    windowsPerSize: windows,
    source: `${windows} random windows per size of the ${labels.length} deep-tail labels (${minLength}+ characters, no digits) of the benign validation slice`,
  };
  writeFileSync(DEFAULT_KINSHIP_NULL_PATH, JSON.stringify(file, null, 1) + '\n');
  console.log(`wrote ${DEFAULT_KINSHIP_NULL_PATH}: sizes 2-${DEFAULT_DGA_VOLUME_OPTIONS.maxDomainsPerHost}, ${windows} windows each`);
  for (const n of [6, 10, 15, 32]) console.log(`  n=${n}: ${quantiles[n].join(' ')}`);
}

if (require.main === module) main(process.argv.slice(2));
