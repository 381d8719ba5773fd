/**
 * Trains (or finds in the cache) the leave-one-family-out models without evaluating them:
 *
 *   node -r ./tools/register.cjs tools/dga/train-lofo.ts [<shared data dir>] [--quick] [--workers N] [--reverse]
 *
 * `npm run eval:detections` does the same on its way; this lets the folds be prepared ahead of time. `--reverse`
 * trains the missing folds last-first, so a second run started beside a first one shares the work.
 */
import { cpus } from 'node:os';
import { sharedDir } from '../../libs/testing/src/shared-dir';
import { lofoModels } from './lofo';

async function main(argv: string[]): Promise<void> {
  const workersIndex = argv.indexOf('--workers');
  const workers = workersIndex >= 0 ? Number(argv[workersIndex + 1]) : Math.min(2, cpus().length);
  const positional = argv.filter((a, i) => !a.startsWith('--') && argv[i - 1] !== '--workers');
  const models = await lofoModels({ dataDir: positional[0] ?? sharedDir('data'), quick: argv.includes('--quick'), workers, reverse: argv.includes('--reverse'), log: (l) => console.log(l) });
  console.log(`${models.length} fold models ready`);
}

if (require.main === module) void main(process.argv.slice(2));
