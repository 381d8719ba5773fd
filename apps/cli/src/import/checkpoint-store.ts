import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { FileHandle } from 'node:fs/promises';
import type { LogFormat, LogParserState } from '@vigil/log-formats';
import { headHashOf, type FileIdentity } from './file-identity';

/**
 * How far one file was imported. Offsets are bytes of the file's content (after gunzip for .gz files). `inflight`
 * lists batches written ahead of sending: after a crash they are sent again with the same byte ranges, hence the
 * same Idempotency-Keys, and the server answers those it already has without publishing them twice.
 */
export interface FileCheckpoint {
  id: string;
  path: string;
  dev: number;
  ino: number;
  headLength: number;
  headHash: string;
  format: LogFormat;
  acked: number;
  inflight: Array<[start: number, end: number]>;
  parserState?: LogParserState;
  /** Read to the end and every batch acknowledged (a plain file that grows later is taken up again). */
  completed: boolean;
  /** Size of the file (on disk) when it was completed. */
  completedSize?: number;
  updatedAt: string;
}

interface StateFile {
  version: 1;
  files: Record<string, FileCheckpoint>;
}

/**
 * The importer's checkpoint file (default `~/.vigil/import-state.json`). Every change is written to a temporary
 * file, fsynced and renamed over the old one, so a crash leaves either the old or the new state. A lock file
 * (`<state>.lock`, holding the owner's pid) keeps two importers off the same state; a lock whose process is gone
 * (kill -9) is taken over.
 */
export class CheckpointStore {
  private writing: Promise<void> = Promise.resolve();

  private constructor(
    readonly file: string,
    private readonly state: StateFile,
  ) {}

  static async open(file: string): Promise<CheckpointStore> {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await acquireLock(`${file}.lock`);
    let state: StateFile = { version: 1, files: {} };
    try {
      const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as StateFile;
      if (parsed?.version === 1 && parsed.files && typeof parsed.files === 'object') state = parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read the import state ${file}: ${(error as Error).message}`);
    }
    return new CheckpointStore(file, state);
  }

  /** The checkpoint of this file, if it was seen before: same device and inode, and the same first bytes. */
  async find(identity: FileIdentity, handle: FileHandle): Promise<FileCheckpoint | undefined> {
    const size = (await handle.stat()).size;
    for (const checkpoint of Object.values(this.state.files)) {
      if (checkpoint.dev !== identity.dev || checkpoint.ino !== identity.ino) continue;
      if (size < checkpoint.headLength || size < Math.min(checkpoint.acked, checkpoint.completedSize ?? checkpoint.acked)) continue;
      if ((await headHashOf(handle, checkpoint.headLength)) === checkpoint.headHash) return checkpoint;
    }
    return undefined;
  }

  /** Records `checkpoint` durably (writes are serialised; resolves once this state is on disk). */
  save(checkpoint: FileCheckpoint): Promise<void> {
    checkpoint.updatedAt = new Date().toISOString();
    this.state.files[checkpoint.id] = checkpoint;
    const text = JSON.stringify(this.state);
    this.writing = this.writing.then(() => writeDurably(this.file, text));
    return this.writing;
  }

  async close(): Promise<void> {
    await this.writing.catch(() => undefined);
    await fs.rm(`${this.file}.lock`, { force: true });
  }
}

async function writeDurably(file: string, text: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  const handle = await fs.open(temporary, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(temporary, file);
  const dir = await fs.open(path.dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
}

async function acquireLock(lock: string): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await fs.open(lock, 'wx');
      await handle.writeFile(String(process.pid));
      await handle.close();
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await fs.readFile(lock, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new Error(`another import (pid ${owner}) is using ${lock.slice(0, -'.lock'.length)}; use --state to give this one its own`);
      }
      await fs.rm(lock, { force: true });
    }
  }
  throw new Error(`cannot lock ${lock}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
