/**
 * Sets the per-host DGA threshold (dga_volume `minStrength`) on simulated browsing of the benign VALIDATION
 * slice (never the held-out slice the evaluation uses), with the committed model and popularity data:
 *
 *   node -r ./tools/register.cjs tools/dga/calibrate-host.ts [<shared data dir>] [--hosts N]
 *
 * Prints the share of host-days flagged at a range of thresholds; the default in dga-volume.ts is the lowest
 * threshold that flags at most 1 host in 2,000 (half the goal of 1 in 1,000), with a margin.
 */
import { DgaModel } from '../../libs/detection-engine/src/detections/dga/dga-model';
import { POPULARITY_TIERS, PopularitySet, type PopularityTier } from '../../libs/detection-engine/src/popularity/popularity';
import { sharedDir } from '../../libs/testing/src/shared-dir';
import { benignLabels } from './dataset';
import { benignHostStrengths, countAtOrAbove } from './host-simulation';

function main(argv: string[]): void {
  const hostsIndex = argv.indexOf('--hosts');
  const hosts = hostsIndex >= 0 ? Number(argv[hostsIndex + 1]) : 20_000;
  const positional = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--hosts');
  const dataDir = positional[0] ?? sharedDir('data');
  const validation = benignLabels(dataDir).filter((b) => b.slice === 'validation' && b.deepTail).flatMap((b) => b.domains);
  const model = DgaModel.load();
  const started = Date.now();
  // The validation domains are in the shipped popularity data: calibrate as if they were not (taken out of
  // it), which is what the held-out slice is to the engine. Hosts also visit ranked sites of every tier.
  const shipped = PopularitySet.load();
  const validationSet = new Set(validation);
  const ranked = POPULARITY_TIERS.flatMap((tier) => shipped.domainsIn(tier).filter((d) => !validationSet.has(d)).map((d): [string, PopularityTier] => [d, tier]));
  const popularity = PopularitySet.fromText(PopularitySet.serialise(ranked));
  const popular = ranked.map(([domain]) => domain);
  const strengths = benignHostStrengths(model, popularity, hosts, { longTail: validation, popular, includePopular: true, seed: 'calibration' });
  console.log(`${hosts} simulated host-days over ${validation.length} validation domains in ${Math.round((Date.now() - started) / 1000)} s`);
  const sorted = Float64Array.from(strengths).sort();
  for (const q of [0.5, 0.9, 0.99, 0.999, 0.9995]) console.log(`  quantile ${q}: ${sorted[Math.min(hosts - 1, Math.floor(q * hosts))].toFixed(2)}`);
  for (let t = 4; t <= 14; t += 1) console.log(`  minStrength ${t}: ${countAtOrAbove(strengths, t)} hosts flagged (${((1000 * countAtOrAbove(strengths, t)) / hosts).toFixed(2)} per 1,000)`);
  const target = Math.floor(hosts / 2000);
  const at = sorted[hosts - 1 - target];
  console.log(`lowest threshold flagging at most ${target} hosts: just above ${at.toFixed(2)}`);
}

if (require.main === module) main(process.argv.slice(2));
