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
import type { DetectionHit } from '../../libs/detection-engine/src/detections/detection';
import { DEFAULT_DGA_MODEL_PATH, DgaModel } from '../../libs/detection-engine/src/detections/dga/dga-model';
import { createDgaDetector } from '../../libs/detection-engine/src/detections/dga/dga-volume';
import { observeEvent } from '../../libs/detection-engine/src/observed-event';
import { PopularitySet } from '../../libs/detection-engine/src/popularity/popularity';
import { sharedDir } from '../../libs/testing/src/shared-dir';
import { BENIGN_LISTS, benignList, dgaDomains } from './dataset';
import { TARGET_FPR, thresholdAtFpr } from './train';

function pct(k: number, n: number): string {
  return n === 0 ? '-' : `${((100 * k) / n).toFixed(2)}%`;
}

/** Names shaped like flightsim's DGA module: 7-10 random lower-case letters. */
export function flightsimLabels(count: number, seed: number): string[] {
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
  const tb = model.burstThreshold;
  const score = new Map<string, number>();
  const scoreOf = (label: string): number => {
    let s = score.get(label);
    if (s === undefined) score.set(label, (s = model.scoreLabel(label)));
    return s;
  };

  console.log(
    `DGA model ${modelPath}\nthreshold ${t} (set at ${TARGET_FPR * 100} % FPR on the validation split), ` +
      `burst threshold ${tb} (set at ${model.file.burstThresholdFpr * 100} % FPR)\n`,
  );
  const dga = dgaDomains(dataDir).filter((d) => d.split === 'test');
  const families = [...new Set(dga.map((d) => d.family))].sort();
  console.log('| DGA family (test split) | domains | TPR at threshold | TPR at burst threshold |');
  console.log('|---|---:|---:|---:|');
  const burstRate = (labels: string[]): string => pct(labels.filter((l) => scoreOf(l) >= tb).length, labels.length);
  let tpAll = 0;
  const familyRates: number[] = [];
  for (const family of families) {
    const domains = dga.filter((d) => d.family === family);
    const tp = domains.filter((d) => scoreOf(d.label) >= t).length;
    tpAll += tp;
    familyRates.push(tp / domains.length);
    console.log(`| ${family} | ${domains.length} | ${pct(tp, domains.length)} | ${burstRate(domains.map((d) => d.label))} |`);
  }
  const macro = familyRates.reduce((a, b) => a + b, 0) / familyRates.length;
  console.log(`| **all (per domain)** | ${dga.length} | **${pct(tpAll, dga.length)}** | ${burstRate(dga.map((d) => d.label))} |`);
  console.log(`| all (mean of families) | ${families.length} families | ${(100 * macro).toFixed(2)}% | |`);
  const flight = flightsimLabels(10_000, 1);
  console.log(`| flightsim-shaped (7-10 random letters) | ${flight.length} | ${pct(flight.filter((l) => scoreOf(l) >= t).length, flight.length)} | ${burstRate(flight)} |`);

  console.log('\n| benign list | split | entries | false positives | FPR | FPR at burst threshold |');
  console.log('|---|---|---:|---:|---:|---:|');
  for (const list of BENIGN_LISTS) {
    const all = benignList(dataDir, list);
    for (const [name, rows] of [['test', all.filter((s) => s.split === 'test')], ['all', all]] as const) {
      const fp = rows.filter((s) => scoreOf(s.label) >= t).length;
      console.log(`| ${list} | ${name} | ${rows.length} | ${fp} | ${pct(fp, rows.length)} | ${burstRate(rows.map((s) => s.label))} |`);
    }
  }

  const cfTest = benignList(dataDir, 'cloudflare-top100k').filter((s) => s.split === 'test');
  const exact = thresholdAtFpr(cfTest.map((s) => scoreOf(s.label)), TARGET_FPR);
  const tpExact = dga.filter((d) => scoreOf(d.label) >= exact).length;
  console.log(`\nTPR at exactly ${TARGET_FPR * 100} % FPR on the Cloudflare test entries (threshold ${exact.toFixed(6)}): ${pct(tpExact, dga.length)}`);
  for (const fpr of [0.002, 0.005, 0.01]) {
    const at = thresholdAtFpr(cfTest.map((s) => scoreOf(s.label)), fpr);
    console.log(`TPR at ${fpr * 100} % FPR on the Cloudflare test entries: ${pct(dga.filter((d) => scoreOf(d.label) >= at).length, dga.length)}`);
  }
  const fps = cfTest.filter((s) => scoreOf(s.label) >= t).map((s) => s.name).slice(0, 25);
  console.log(`Cloudflare test false positives at the committed threshold (first 25): ${fps.join(' ')}`);
  const top = [...cfTest].sort((a, b) => scoreOf(b.label) - scoreOf(a.label)).slice(0, 100).map((s) => s.label);
  console.log(`The 100 highest-scoring Cloudflare test labels: ${top.join(' ')}`);
  console.log(`Scoring cost: ${costPerLabel(model, cfTest.map((s) => s.label)).toFixed(2)} µs CPU per label`);
  hostDecision(model, cfTest.map((s) => s.name));
}

/** CPU time per scoreLabel call (CPU, not wall clock: the machine may be shared), after a warm-up pass. */
function costPerLabel(model: DgaModel, labels: string[]): number {
  let sink = 0;
  for (const l of labels) sink += model.scoreLabel(l);
  const start = process.cpuUsage();
  const rounds = 3;
  for (let r = 0; r < rounds; r++) for (const l of labels) sink += model.scoreLabel(l);
  const used = process.cpuUsage(start);
  return sink < 0 ? NaN : (used.user + used.system) / (rounds * labels.length);
}

const T0 = Date.parse('2026-11-21T10:00:00Z');
const FLIGHTSIM_TLDS = ['com', 'net', 'biz', 'org', 'info', 'top'];

function lookup(query: string, timeMs: number, srcIP: string, seq: number) {
  const batch = { v: 1 as const, workspaceId: 'eval', type: 'dns' as const, batchId: `e${seq}`, receivedAt: timeMs, events: [{ ts: new Date(timeMs).toISOString(), srcIP, query, qtype: 'A' }] };
  return observeEvent(batch, 0)!;
}

/** The per-host decision: flightsim-shaped runs caught, and bursts raised by unranked real names. */
function hostDecision(model: DgaModel, cloudflareTest: string[]): void {
  const runs = 1000;
  let caught = 0;
  for (let run = 0; run < runs; run++) {
    const detector = createDgaDetector({ model });
    const names = flightsimLabels(15, 1000 + run).map((l, i) => `${l}.${FLIGHTSIM_TLDS[(run + i) % FLIGHTSIM_TLDS.length]}`);
    if (names.some((n, i) => detector.inspect(lookup(n, T0 + i * 1000, '10.0.0.5', i)) !== undefined)) caught++;
  }
  console.log(`\nPer-host decision (dga_volume, defaults): flightsim-shaped runs (15 names in 15 s) caught: ${caught}/${runs}`);
  const unranked = createDgaDetector({ model, popularity: PopularitySet.fromText('# vigil popularity v1\n') });
  const hits: DetectionHit[] = [];
  cloudflareTest.forEach((n, i) => {
    const h = unranked.inspect(lookup(n, T0 + i * 1000, '10.0.0.6', i));
    if (h !== undefined) hits.push(h);
  });
  const fires = hits.filter((h) => h.weight >= 5).length;
  console.log(
    `Cloudflare test names (${cloudflareTest.length}) looked up by one host at 1/s with the popularity filter off: ` +
      `${hits.length} hits (${fires} first firings)`,
  );
}

if (require.main === module) main(process.argv.slice(2));
