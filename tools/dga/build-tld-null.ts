/**
 * Builds libs/detection-engine/data/dga/tld-null.json: the public suffixes of the deep-tail domains of the
 * benign VALIDATION slice (never the held-out slice), and for windows of 2 to 32 distinct such domains drawn at
 * random, how many distinct suffixes they hold (the per-host TLD term of dga_volume, tld-null.ts):
 *
 *   node -r ./tools/register.cjs tools/dga/build-tld-null.ts [<shared data dir>] [--windows N]
 *
 * Deterministic for the same data.
 */
import { writeFileSync } from 'node:fs';
import { registrableLabel, suffixOfRegistrable } from '../../libs/detection-engine/src/detections/dga/registrable-label';
import { DEFAULT_DGA_VOLUME_OPTIONS } from '../../libs/detection-engine/src/detections/dga/dga-volume';
import { DEFAULT_TLD_NULL_PATH, TLD_NULL_FORMAT, type TldNullFile } from '../../libs/detection-engine/src/detections/dga/tld-null';
import { createRng } from '../../libs/testing/src/prng';
import { sharedDir } from '../../libs/testing/src/shared-dir';
import { benignLabels } from './dataset';

/** A share estimated from `hits` of `trials` windows, rounded up: never below one window in `trials + 1`. */
function conservativeShare(hits: number, trials: number): number {
  return Number(((hits + 1) / (trials + 1)).toPrecision(3));
}

function main(argv: string[]): void {
  const windowsIndex = argv.indexOf('--windows');
  const windows = windowsIndex >= 0 ? Number(argv[windowsIndex + 1]) : 100_000;
  const dataDir = argv.find((a, i) => !a.startsWith('--') && argv[i - 1] !== '--windows') ?? sharedDir('data');
  // Each domain as dga_volume sees it: its registrable domain by the engine's own split, then what follows the label.
  const registrable = benignLabels(dataDir)
    .filter((b) => b.slice === 'validation' && b.deepTail)
    .flatMap((b) => b.domains.flatMap((d) => registrableLabel(d)?.domain ?? []));
  const domains = [...new Set(registrable)].sort();
  const suffixes = domains.map(suffixOfRegistrable);
  const counts: Record<string, number> = {};
  for (const s of suffixes) counts[s] = (counts[s] ?? 0) + 1;
  const rng = createRng('tld-null');
  const distinct: TldNullFile['distinct'] = {};
  for (let n = 2; n <= DEFAULT_DGA_VOLUME_OPTIONS.maxDomainsPerHost; n++) {
    const histogram = new Array<number>(n + 1).fill(0);
    for (let w = 0; w < windows; w++) {
      const picked = new Set<number>();
      while (picked.size < n) picked.add(rng.int(0, domains.length - 1));
      histogram[new Set([...picked].map((i) => suffixes[i])).size]++;
    }
    const atMost: number[] = [];
    const atLeast: number[] = [];
    for (let d = 1, below = 0; d <= n; d++) {
      below += histogram[d];
      atMost.push(conservativeShare(below, windows));
      atLeast.push(conservativeShare(windows - below + histogram[d], windows));
    }
    distinct[n] = { atMost, atLeast };
  }
  const file: TldNullFile = {
    format: TLD_NULL_FORMAT,
    domains: domains.length,
    counts: Object.fromEntries(Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))),
    distinct,
    windowsPerSize: windows,
    source: `${windows} random windows per size of the ${domains.length} deep-tail domains of the benign validation slice`,
  };
  writeFileSync(DEFAULT_TLD_NULL_PATH, JSON.stringify(file) + '\n');
  console.log(`wrote ${DEFAULT_TLD_NULL_PATH}: ${Object.keys(counts).length} suffixes, sizes 2-${DEFAULT_DGA_VOLUME_OPTIONS.maxDomainsPerHost}, ${windows} windows each`);
  for (const n of [6, 10, 15]) console.log(`  n=${n}: at most ${distinct[n].atMost.slice(0, 4).join(' ')} ... at least ${distinct[n].atLeast.slice(-4).join(' ')}`);
}

if (require.main === module) main(process.argv.slice(2));
