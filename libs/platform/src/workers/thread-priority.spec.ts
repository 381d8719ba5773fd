import * as path from 'node:path';
import { siblingModule } from './task-module';
import { threadNice } from './thread-priority';
import { WorkerPool } from './worker-pool';

const FIXTURE = siblingModule(path.join(__dirname, 'testing', 'x.ts'), 'pool-fixture-tasks');

describe('lowerThreadPriority', () => {
  jest.setTimeout(60_000);
  const linux = process.platform === 'linux' ? it : it.skip;

  linux('raises the nice value of the calling worker thread only, not of the rest of the process', async () => {
    const before = threadNice();
    const pool = new WorkerPool<{ nice: number }, { lowered: boolean; nice: number | undefined }>({
      name: 'fixture priority',
      module: FIXTURE,
      exportName: 'lowerPriority',
      timeoutMs: 20_000,
      resourceLimits: { maxOldGenerationSizeMb: 64 },
    });
    // Relative to where this process runs (CI may run it under `nice`).
    const target = Math.min(19, (before ?? 0) + 3);
    try {
      expect(await pool.run({ nice: target })).toEqual({ lowered: true, nice: target });
      // Never raised back: a lower nice than the thread has is left alone.
      expect(await pool.run({ nice: target - 2 })).toEqual({ lowered: true, nice: target });
    } finally {
      await pool.close();
    }
    expect(threadNice()).toBe(before);
  });
});
