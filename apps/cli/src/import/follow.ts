import * as fs from 'node:fs/promises';
import { headHashOf } from './file-identity';
import { FileImport, type ImportContext } from './file-import';

export interface FollowOptions {
  pollMs: number;
  /** Send what was read after this long without new lines. */
  flushMs: number;
}

/**
 * `tail -F` for one path: reads the file as it grows and sends its records within `flushMs`; survives rotation
 * by rename (the old file is read to its end through the open descriptor, then the new file at the path is
 * taken up from its start) and by copytruncate (the file shrinks or its first bytes change: it is a new file,
 * read from its start). Stops, after sending what was read, when `signal` aborts.
 */
export async function followPath(ctx: ImportContext, filePath: string, signal: AbortSignal, options: FollowOptions): Promise<void> {
  let current: FileImport | undefined;
  const sleep = () => new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, options.pollMs);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
  try {
    while (!signal.aborted) {
      if (current === undefined) {
        current = await openWhenReady(ctx, filePath);
        if (current === undefined) {
          await sleep();
          continue;
        }
        if (current.gzip) {
          // Compressed files do not grow: import once, then wait for the name to point elsewhere.
          if (!(await current.alreadyDone())) await current.importAll();
        }
      }
      if (!current.gzip) {
        await current.readAvailable();
        await current.flushIfIdle(options.flushMs);
      }
      const change = await changeOf(current, filePath);
      if (change !== 'none') {
        if (!current.gzip) {
          if (change === 'rotated') await current.readAvailable();
          await current.finish(true);
        }
        await current.handle.close();
        current = undefined;
        continue;
      }
      await sleep();
    }
    if (current !== undefined && !current.gzip) {
      await current.readAvailable();
      await current.finish(false);
    }
  } finally {
    await current?.handle.close().catch(() => undefined);
  }
}

async function openWhenReady(ctx: ImportContext, filePath: string): Promise<FileImport | undefined> {
  const handle = await fs.open(filePath, 'r').catch(() => undefined);
  if (handle === undefined) return undefined;
  // An empty file has no first bytes to tell it apart from its successor: wait for content.
  if ((await handle.stat()).size === 0) {
    await handle.close();
    return undefined;
  }
  try {
    return await FileImport.open(ctx, filePath, handle);
  } catch (error) {
    await handle.close();
    throw error;
  }
}

async function changeOf(current: FileImport, filePath: string): Promise<'none' | 'rotated' | 'truncated'> {
  const byName = await fs.stat(filePath).catch(() => undefined);
  const own = await current.handle.stat();
  if (byName === undefined || byName.ino !== own.ino || byName.dev !== own.dev) return 'rotated';
  if (current.gzip) return 'none';
  const { headLength, headHash } = current.checkpoint;
  if (own.size < current.readPosition || own.size < headLength || (await headHashOf(current.handle, headLength)) !== headHash) return 'truncated';
  return 'none';
}
