import { createHash } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';

/** Bytes at the start of a file that identify its content (with device and inode). */
export const HEAD_BYTES = 1024;

/**
 * Which file this is, independent of its name: device + inode, plus a hash of its first bytes so that a replaced
 * file whose inode was reused, or a file truncated and rewritten in place (copytruncate), is a different file.
 */
export interface FileIdentity {
  dev: number;
  ino: number;
  headLength: number;
  headHash: string;
}

export async function identify(handle: FileHandle): Promise<FileIdentity> {
  const stat = await handle.stat();
  const headLength = Math.min(stat.size, HEAD_BYTES);
  return { dev: stat.dev, ino: stat.ino, headLength, headHash: await headHashOf(handle, headLength) };
}

export async function headHashOf(handle: FileHandle, length: number): Promise<string> {
  const head = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await handle.read(head, read, length - read, read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return createHash('sha256').update(head.subarray(0, read)).digest('hex');
}

/** The short id used in checkpoints and Idempotency-Keys. */
export function identityId(identity: FileIdentity): string {
  return createHash('sha256').update(`${identity.dev}:${identity.ino}:${identity.headLength}:${identity.headHash}`).digest('hex').slice(0, 24);
}
