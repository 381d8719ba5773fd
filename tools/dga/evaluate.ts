/**
 * Prints the evaluation table of the committed DGA model on the test split (never used in training or for
 * the threshold):
 *
 *   node -r ./tools/register.cjs tools/dga/evaluate.ts [<shared data dir>] [--model <model.json>]
 *
 * Per DGA family: test domains and TPR at the committed threshold. Benign: FPR per list on the test split,
 * and on the whole Cloudflare top-100k (optimistic: 60 % of it was training data). Also TPR at exactly
 * 0.1 % FPR on the Cloudflare test entries, and the TPR on flightsim-shaped names (7-10 random letters).
 */
import { DEFAULT_DGA_MODEL_PATH, DgaModel } from '../../libs/detection-engine/src/detections/dga/dga-model';
import { sharedDir } from '../../libs/testing/src/shared-dir';
import { BENIGN_LISTS, benignList, dgaDomains } from './dataset';
import { TARGET_FPR, thresholdAtFpr } from './train';

function pct(k: number, n: number): string {
  return n === 0 ? '-' : `${((100 * k) / n).toFixed(2)}%`;
}

/** Names shaped like flightsim's DGA module: 7-10 random lower-case letters. */
export function flightsimLabels(count: number, seed = 1): string[] {
  let s = seed >>> 0;
  const random = (): number => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
  return Array.from({ length: count }, () => {
    const length = 7 + Math.floor(random() * 4);
    let label = '';
    for (let i = 0; i < length; i++) label += String.fromCharCode(97 + Math.floor(random() * 26));
    return label;
  });
}

function main(argv: string[]): void {
  const modelIndex = argv.indexOf('--model');
  const modelPath = modelIndex >= 0 ? argv[modelIndex + 1] : DEFAULT_DGA_MODEL_PATH;
  const positional = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--model');
  const dataDir = positional[0] ?? sharedDir('data');
  const model = DgaModel.load(modelPath);
  const t = model.threshold;
  const score = new Map<string, number>();
  const scoreOf = (label: string): number => {
    let s = score.get(label);
    if (s === undefined) score.set(label, (s = model.scoreLabel(label)));
    return s;
  };

  console.log(`DGA model ${modelPath}\nthreshold ${t} (set at ${TARGET_FPR * 100} % FPR on the validation split)\n`);
  const dga = dgaDomains(dataDir).filter((d) => d.split === 'test');
  const families = [...new Set(dga.map((d) => d.family))].sort();
  console.log('| DGA family (test split) | domains | TPR |');
  console.log('|---|---:|---:|');
  let tpAll = 0;
  const familyRates: number[] = [];
  for (const family of families) {
    const domains = dga.filter((d) => d.family === family);
    const tp = domains.filter((d) => scoreOf(d.label) >= t).length;
    tpAll += tp;
    familyRates.push(tp / domains.length);
    console.log(`| ${family} | ${domains.length} | ${pct(tp, domains.length)} |`);
  }
  const macro = familyRates.reduce((a, b) => a + b, 0) / familyRates.length;
  console.log(`| **all (per domain)** | ${dga.length} | **${pct(tpAll, dga.length)}** |`);
  console.log(`| all (mean of families) | ${families.length} families | ${(100 * macro).toFixed(2)}% |`);
  const flight = flightsimLabels(10_000);
  console.log(`| flightsim-shaped (7-10 random letters) | ${flight.length} | ${pct(flight.filter((l) => scoreOf(l) >= t).length, flight.length)} |`);

  console.log('\n| benign list | split | entries | false positives | FPR |');
  console.log('|---|---|---:|---:|---:|');
  for (const list of BENIGN_LISTS) {
    const all = benignList(dataDir, list);
    for (const [name, rows] of [['test', all.filter((s) => s.split === 'test')], ['all', all]] as const) {
      const fp = rows.filter((s) => scoreOf(s.label) >= t).length;
      console.log(`| ${list} | ${name} | ${rows.length} | ${fp} | ${pct(fp, rows.length)} |`);
    }
  }

  const cfTest = benignList(dataDir, 'cloudflare-top100k').filter((s) => s.split === 'test');
  const exact = thresholdAtFpr(cfTest.map((s) => scoreOf(s.label)), TARGET_FPR);
  const tpExact = dga.filter((d) => scoreOf(d.label) >= exact).length;
  console.log(`\nTPR at exactly ${TARGET_FPR * 100} % FPR on the Cloudflare test entries (threshold ${exact.toFixed(6)}): ${pct(tpExact, dga.length)}`);
  const fps = cfTest.filter((s) => scoreOf(s.label) >= t).map((s) => s.name).slice(0, 25);
  console.log(`Cloudflare test false positives at the committed threshold (first 25): ${fps.join(' ')}`);
}

if (require.main === module) main(process.argv.slice(2));
