import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { WorkerBudgetError, WorkerPool, WorkerQueueFullError, WorkerTaskError } from './worker-pool';
import { waitUntil } from '@vigil/testing';
import { siblingModule } from './task-module';
import { movableBuffersOf } from './movable-buffers';

const FIXTURE = siblingModule(path.join(__dirname, 'testing', 'x.ts'), 'pool-fixture-tasks');
const limits = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 };

function pool<I, O>(exportName: string, overrides: { timeoutMs?: number; maxQueued?: number } = {}): WorkerPool<I, O> {
  return new WorkerPool<I, O>({ name: `fixture ${exportName}`, module: FIXTURE, exportName, timeoutMs: overrides.timeoutMs ?? 20_000, resourceLimits: limits, maxQueued: overrides.maxQueued });
}

describe('WorkerPool', () => {
  jest.setTimeout(60_000);

  it('runs tasks from TypeScript sources in a thread (registering swc itself under Jest) and returns their results', async () => {
    const echo = pool<{ value: unknown }, unknown>('echo');
    try {
      expect(await echo.run({ value: { a: [1, 2], b: 'x' } })).toEqual({ a: [1, 2], b: 'x' });
      expect(echo.threads).toBe(1);
      const lib = pool<void, string>('topicName');
      expect(await lib.run(undefined)).toBe('ctl.rules.v1');
      await lib.close();
    } finally {
      await echo.close();
    }
  });

  it('warms a thread ahead of the first task (optionally running a task once) and lets it go when idle', async () => {
    const echo = new WorkerPool<{ value: number }, number>({ name: 'fixture warm', module: FIXTURE, exportName: 'echo', timeoutMs: 20_000, resourceLimits: limits, idleTimeoutMs: 300 });
    try {
      await echo.warm({ value: 1 });
      expect(echo.threads).toBe(1);
      const started = performance.now();
      expect(await echo.run({ value: 2 })).toBe(2);
      expect(performance.now() - started).toBeLessThan(1000); // the module is loaded already
      await waitUntil(() => echo.threads === 0, 'the idle thread to be let go', 10_000);
      expect(await echo.run({ value: 3 })).toBe(3);
    } finally {
      await echo.close();
    }
  });

  it('moves buffers to the thread and back instead of copying them, when asked to', async () => {
    const task = pool<{ bytes: Uint8Array; size: number }, { sum: number; made: Uint8Array }>('sumAndMake');
    try {
      const bytes = new Uint8Array(1_000_000).fill(2);
      const moved = await task.run({ bytes, size: 500_000 }, movableBuffersOf([bytes]));
      expect(moved.sum).toBe(2_000_000);
      expect(bytes.byteLength).toBe(0); // detached here: it went to the thread
      expect(moved.made.byteLength).toBe(500_000);
      expect(moved.made[499_999]).toBe(7);

      const copied = new Uint8Array(10).fill(1);
      expect((await task.run({ bytes: copied, size: 1 })).sum).toBe(10);
      expect(copied.byteLength).toBe(10); // not listed: copied, still usable
    } finally {
      await task.close();
    }
  });

  it("passes the task's own error on, and the thread serves the next task", async () => {
    const failing = pool<{ message: string }, never>('fail');
    try {
      const error = await failing.run({ message: 'nope' }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(WorkerTaskError);
      expect(error).toMatchObject({ message: 'nope', taskErrorName: 'RangeError' });
      expect(await failing.run({ message: 'again' }).catch((e: Error) => e.message)).toBe('again');
      expect(failing.threads).toBe(1);
    } finally {
      await failing.close();
    }
  });

  it('stops a task that overruns its time budget, naming the budget and what the task was doing', async () => {
    const spin = pool<{ note: string }, never>('spin', { timeoutMs: 1500 });
    try {
      const started = Date.now();
      const error = await spin.run({ note: 'rules/endless.yml' }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(WorkerBudgetError);
      expect(error).toMatchObject({ budget: 'time', progress: 'rules/endless.yml' });
      expect((error as Error).message).toMatch(/time budget of 1500 ms/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(spin.threads).toBe(0);
    } finally {
      await spin.close();
    }
  });

  it('stops a task whose thread reaches its heap limit, and the process lives on', async () => {
    const hoard = pool<{ note: string }, number>('hoard');
    try {
      const error = await hoard.run({ note: 'big.yml' }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(WorkerBudgetError);
      expect(error).toMatchObject({ budget: 'memory', progress: 'big.yml' });
      expect((error as Error).message).toMatch(/memory budget \(heap 64 MB/);
    } finally {
      await hoard.close();
    }
    const echo = pool<{ value: number }, number>('echo');
    expect(await echo.run({ value: 7 })).toBe(7);
    await echo.close();
  });

  it('queues tasks beyond its threads and refuses more than it may queue', async () => {
    const spin = pool<{ note: string }, never>('spin', { timeoutMs: 2000, maxQueued: 1 });
    try {
      const first = spin.run({ note: 'first' }).catch((e: Error) => e);
      const second = spin.run({ note: 'second' }).catch((e: Error) => e);
      const third = await spin.run({ note: 'third' }).catch((e: Error) => e);
      expect(third).toBeInstanceOf(WorkerQueueFullError);
      // The second waits for the first's thread to be stopped, then gets a new thread and its own budget.
      expect(await first).toMatchObject({ budget: 'time', progress: 'first' });
      expect(await second).toMatchObject({ budget: 'time', progress: 'second' });
    } finally {
      await spin.close();
    }
  });

  it('lets a thread finish what it is doing before it ends on close, and rejects the task at once', async () => {
    const pause = pool<{ ms: number; file: string; marker: string }, void>('pauseThenMark');
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-pool-'));
    const file = path.join(dir, 'marker');
    try {
      const running = pause.run({ ms: 800, file, marker: 'done' }).catch((e: Error) => e);
      await waitUntil(() => pause.threads === 1, 'the thread to start', 10_000);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const closed = pause.close();
      expect(await running).toMatchObject({ message: 'fixture pauseThenMark is shutting down' });
      await closed;
      // Terminated from outside, the thread would never have written the marker.
      expect(readFileSync(file, 'utf8')).toBe('done');
      expect(pause.threads).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
