/**
 * One LocalBus per data directory: a `LOCK` file holding the owner's pid. A lock left by a process that no
 * longer exists (killed with SIGKILL, power loss) is taken over; a live owner is reported clearly.
 */
import { promises as fs } from 'fs';
import * as path from 'path';

const LOCK_FILE = 'LOCK';
const heldInThisProcess = new Set<string>();

export interface DirLock {
  release(): Promise<void>;
}

export async function lockDirectory(dirPath: string): Promise<DirLock> {
  const resolved = path.resolve(dirPath);
  if (heldInThisProcess.has(resolved)) {
    throw new Error(`bus data directory ${resolved} is already open in this process; close the other LocalBus first`);
  }
  const lockPath = path.join(resolved, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      await fs.writeFile(lockPath, String(process.pid), { flag: 'wx' });
      heldInThisProcess.add(resolved);
      return {
        release: async () => {
          heldInThisProcess.delete(resolved);
          await fs.rm(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number.parseInt(await fs.readFile(lockPath, 'utf8').catch(() => ''), 10);
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isAlive(owner)) {
      throw new Error(`bus data directory ${resolved} is in use by process ${owner} (remove ${lockPath} if that is wrong)`);
    }
    await fs.rm(lockPath, { force: true });
  }
  throw new Error(`could not lock bus data directory ${resolved}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
