import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  readonly path: string;
  /** Removes the directory and everything in it; safe to call more than once. */
  cleanup(): void;
}

/** Creates a fresh, empty directory under the OS temp dir, named `<prefix><random>`. */
export function makeTempDir(prefix = 'vigil-'): TempDir {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(prefix)) {
    throw new RangeError(`temp dir prefix must be 1-64 letters, digits, ".", "_" or "-", got "${prefix}"`);
  }
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    cleanup: () => rmSync(path, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 }),
  };
}

/** Runs `fn` with a fresh temp dir and removes the dir afterwards, whether `fn` succeeds or throws. */
export async function withTempDir<T>(prefix: string, fn: (path: string) => T | Promise<T>): Promise<T> {
  const dir = makeTempDir(prefix);
  try {
    return await fn(dir.path);
  } finally {
    dir.cleanup();
  }
}
