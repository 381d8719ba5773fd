import { LocalBus } from './local-bus';
import * as os from 'os'; import * as path from 'path'; import { mkdtempSync } from 'fs';
async function main() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bus-'));
  const bus = await LocalBus.open({ dir, topics: [{ name: 't', partitions: 4, cleanup: 'delete', retentionHours: 1 }] });
  const got: string[] = [];
  const sub = await bus.subscribe({ topic: 't', group: 'g' }, async (b) => { for (const r of b.records) got.push(`${b.partition}:${r.offset}:${r.key}:${r.value}`); });
  await sub.caughtUp;
  const t0 = Date.now();
  const N = 2000;
  const value = Buffer.alloc(100_000, 1);
  await Promise.all(Array.from({ length: N }, (_, i) => bus.publish('t', [{ key: `k${i % 10}`, value }])));
  console.log('published', N, 'x100KB in', Date.now() - t0, 'ms');
  while (got.length < N) await new Promise((r) => setTimeout(r, 5));
  console.log('consumed in', Date.now() - t0, 'ms');
  await bus.close();
  const bus2 = await LocalBus.open({ dir, topics: [{ name: 't', partitions: 4, cleanup: 'delete', retentionHours: 1 }] });
  let n = 0;
  const s2 = await bus2.subscribe({ topic: 't' }, async (b) => { n += b.records.length; });
  await s2.caughtUp; console.log('broadcast after reopen', n, 'in', Date.now() - t0);
  let g = 0;
  const s3 = await bus2.subscribe({ topic: 't', group: 'g' }, async (b) => { g += b.records.length; });
  await s3.caughtUp; console.log('group redelivered', g);
  await bus2.close();
  console.log(dir);
}
main().catch((e) => { console.error(e); process.exit(1); });
