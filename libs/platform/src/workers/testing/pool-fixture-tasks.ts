import { writeFileSync } from 'node:fs';
import { TOPICS } from '@vigil/contracts';
import type { TaskContext } from '../worker-protocol';
import { lowerThreadPriority, threadNice } from '../thread-priority';

/** Tasks for the WorkerPool tests; each runs inside a worker thread. */
export function echo(input: { value: unknown }): unknown {
  return input.value;
}

export async function fail(input: { message: string }): Promise<never> {
  throw new RangeError(input.message);
}

/** Reports progress, then never returns: only the time budget stops it. */
export function spin(input: { note: string }, context: TaskContext): never {
  context.progress(input.note);
  for (;;) {
    // busy
  }
}

/** Reports progress, then allocates until the thread's heap limit stops it. */
export function hoard(input: { note: string }, context: TaskContext): number {
  context.progress(input.note);
  const kept: string[][] = [];
  for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => `${i}-${kept.length}`));
}

/** Proves the thread loads TypeScript and resolves `@vigil/*` imports. */
export function topicName(): string {
  return TOPICS.rules.name;
}

/** Lowers its thread's priority, then reports the thread's nice value. */
export function lowerPriority(input: { nice: number }): { lowered: boolean; nice: number | undefined } {
  const lowered = lowerThreadPriority(input.nice);
  return { lowered, nice: threadNice() };
}

/** Sums the bytes it was handed, then hands back a new buffer of `size` bytes, moved rather than copied. */
export function sumAndMake(input: { bytes: Uint8Array; size: number }, context: TaskContext): { sum: number; made: Uint8Array } {
  let sum = 0;
  for (const byte of input.bytes) sum += byte;
  const made = new Uint8Array(input.size).fill(7);
  context.transfer([made.buffer]);
  return { sum, made };
}

/** Waits `ms`, then writes `marker` to `file`: proves whether the thread was let finish its task. */
export async function pauseThenMark(input: { ms: number; file: string; marker: string }): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, input.ms));
  writeFileSync(input.file, input.marker);
}
