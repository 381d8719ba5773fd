/**
 * Builds libs/detection-engine/data/popularity/popularity.txt.br from the benign rankings:
 *
 *   node -r ./tools/register.cjs tools/dga/build-popularity.ts [<shared data dir>] [--out <file.br>]
 *
 * Every entry is reduced to its registered domain (public suffix list, private section included); entries
 * that are themselves public suffixes are dropped, and so are the domains of the held-out benign slice
 * (tools/dga/dataset.ts): the evaluation measures false positives on them as names the engine has never seen.
 * Tier rules: see src/popularity/popularity.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { registeredDomain } from '../../libs/detection-engine/src/domain';
import { DEFAULT_POPULARITY_PATH, PopularitySet, type PopularityTier } from '../../libs/detection-engine/src/popularity/popularity';
import { sharedDir } from '../../libs/testing/src/shared-dir';
import { heldOutDomains } from './dataset';

const LISTS = ['tranco10k', 'majestic-top10k', 'cloudflare-top100k', 'cisco-top20k'] as const;
const TOP10K_LISTS = new Set<string>(['tranco10k', 'majestic-top10k']);
const TOP1K_SIZE = 1000;

export function buildPopularity(dataDir: string): Map<string, PopularityTier> {
  const listsOf = new Map<string, Set<string>>();
  const ciscoHosts = new Map<string, number>();
  const heldOut = heldOutDomains(dataDir);
  for (const list of LISTS) {
    for (const line of readFileSync(join(dataDir, 'benign', `${list}.txt`), 'utf8').split('\n')) {
      const domain = line.trim() === '' ? undefined : registeredDomain(line);
      if (domain === undefined || heldOut.has(domain)) continue;
      let lists = listsOf.get(domain);
      if (lists === undefined) listsOf.set(domain, (lists = new Set()));
      lists.add(list);
      if (list === 'cisco-top20k') ciscoHosts.set(domain, (ciscoHosts.get(domain) ?? 0) + 1);
    }
  }
  const ranked = [...listsOf.keys()].sort(
    (a, b) =>
      listsOf.get(b)!.size - listsOf.get(a)!.size ||
      (ciscoHosts.get(b) ?? 0) - (ciscoHosts.get(a) ?? 0) ||
      (a < b ? -1 : a > b ? 1 : 0),
  );
  const tiers = new Map<string, PopularityTier>();
  ranked.forEach((domain, rank) => {
    const inTop10k = [...listsOf.get(domain)!].some((l) => TOP10K_LISTS.has(l));
    tiers.set(domain, rank < TOP1K_SIZE && inTop10k ? 'top1k' : inTop10k ? 'top10k' : 'top100k');
  });
  return tiers;
}

function main(argv: string[]): void {
  const outIndex = argv.indexOf('--out');
  const out = outIndex >= 0 ? argv[outIndex + 1] : DEFAULT_POPULARITY_PATH;
  const positional = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--out');
  const tiers = buildPopularity(positional[0] ?? sharedDir('data'));
  const text = PopularitySet.serialise(tiers);
  const compressed = brotliCompressSync(Buffer.from(text), {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: text.length },
  });
  writeFileSync(out, compressed);
  const set = PopularitySet.fromText(text);
  console.log(
    `wrote ${out}: ${set.size} registered domains (top1k ${set.count('top1k')}, top10k ${set.count('top10k')}, ` +
      `top100k ${set.count('top100k')}), ${compressed.length} bytes (${text.length} uncompressed)`,
  );
}

if (require.main === module) main(process.argv.slice(2));
