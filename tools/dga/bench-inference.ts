/**
 * The cost of scoring one registrable label with the committed DGA model (features, word segmentation and the
 * network), next to a baseline measured in the same run (extracting the registrable label of a name):
 *
 *   node -r ./tools/register.cjs tools/dga/bench-inference.ts [<shared data dir>]
 *
 * CPU time (not wall clock: the machine may be shared), after a warm-up pass, median of several passes.
 */
import { DgaModel } from '../../libs/detection-engine/src/detections/dga/dga-model';
import { registrableLabel } from '../../libs/detection-engine/src/detections/dga/registrable-label';
import { sharedDir } from '../../libs/testing/src/shared-dir';
import { benignLabels, dgaDomains } from './dataset';

export interface ScoringCost {
  perName: number;
  baseline: number;
  labels: number;
  passes: number;
}

function cpuMicros(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

export function scoringCost(model: DgaModel, labels: string[], passes = 5): ScoringCost {
  const names = labels.map((l) => `www.${l}.com`);
  let sink = 0;
  for (const l of labels) sink += model.scoreLabel(l);
  for (const n of names) sink += registrableLabel(n)?.label.length ?? 0;
  const scoring: number[] = [];
  const baseline: number[] = [];
  for (let p = 0; p < passes; p++) {
    let t = cpuMicros();
    for (const l of labels) sink += model.scoreLabel(l);
    scoring.push((cpuMicros() - t) / labels.length);
    t = cpuMicros();
    for (const n of names) sink += registrableLabel(n)?.label.length ?? 0;
    baseline.push((cpuMicros() - t) / labels.length);
  }
  if (sink === -1) console.log(sink);
  return { perName: median(scoring), baseline: median(baseline), labels: labels.length, passes };
}

function main(argv: string[]): void {
  const dataDir = argv[0] ?? sharedDir('data');
  const model = DgaModel.load();
  const held = benignLabels(dataDir).filter((b) => b.slice === 'heldout').map((b) => b.label);
  const dga = [...new Set(dgaDomains(dataDir).map((d) => d.label))].slice(0, 20_000);
  for (const [name, labels] of [['held-out benign labels', held], ['DGA labels', dga]] as const) {
    const c = scoringCost(model, labels);
    console.log(`${name} (${c.labels}): ${c.perName.toFixed(2)} µs CPU per label; baseline (registrable label of www.<label>.com) ${c.baseline.toFixed(2)} µs; ratio ${(c.perName / c.baseline).toFixed(1)}x`);
  }
}

if (require.main === module) main(process.argv.slice(2));
