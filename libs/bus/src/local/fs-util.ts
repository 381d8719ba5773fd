/** Small durable-file helpers: directory fsync, atomic replace, complete positional writes. */
import { promises as fs } from 'fs';
import type { FileHandle } from 'fs/promises';
import * as path from 'path';

/** Makes a directory entry change (create, rename, unlink) durable. */
export async function fsyncDirectory(dirPath: string): Promise<void> {
  const handle = await fs.open(dirPath, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Creates `dirPath` (and parents) and makes the new entries durable. */
export async function ensureDirectory(dirPath: string): Promise<void> {
  const created = await fs.mkdir(dirPath, { recursive: true });
  if (created === undefined) return;
  // fsync every directory from the parent of the first created one down to the new leaf.
  let current = path.dirname(created);
  const chain: string[] = [current];
  for (const part of path.relative(current, dirPath).split(path.sep)) {
    current = path.join(current, part);
    chain.push(current);
  }
  for (const dir of chain) await fsyncDirectory(dir);
}

/** Replaces `filePath` atomically and durably: write a temp file, fsync it, rename over, fsync the directory. */
export async function writeFileAtomic(filePath: string, data: string | Buffer): Promise<void> {
  const tempPath = `${filePath}.tmp`;
  const handle = await fs.open(tempPath, 'w');
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tempPath, filePath);
  await fsyncDirectory(path.dirname(filePath));
}

/** Writes every byte of `buffers` at `position` (loops over short writes). */
export async function writeAll(handle: FileHandle, buffers: Buffer[], position: number): Promise<number> {
  let remaining = buffers;
  let at = position;
  let total = 0;
  while (remaining.length > 0) {
    const { bytesWritten } = await handle.writev(remaining, at);
    if (bytesWritten <= 0) throw new Error('write made no progress');
    total += bytesWritten;
    at += bytesWritten;
    remaining = dropBytes(remaining, bytesWritten);
  }
  return total;
}

function dropBytes(buffers: Buffer[], count: number): Buffer[] {
  let left = count;
  let index = 0;
  while (index < buffers.length && left >= buffers[index].length) {
    left -= buffers[index].length;
    index += 1;
  }
  const rest = buffers.slice(index);
  if (left > 0 && rest.length > 0) rest[0] = rest[0].subarray(left);
  return rest;
}
